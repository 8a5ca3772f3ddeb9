/**
 * The logo fallback chain (V1 -> V2 -> V6) through GraphQL and `/images/logo`,
 * the V2 image incident, and the `Image` fields.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importEntities, imageIds } from '../sandbox/fixtures/images.js';
import { clearFaults, gql, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const LOGO = /* GraphQL */ `
  query Logo($sources: LogoSourcesInput!) {
    logo(sources: $sources) { url version placeholder thumbnail { url version } }
  }
`;

interface LogoData {
  logo: {
    url: string;
    version: string;
    placeholder: boolean | null;
    thumbnail: { url: string; version: string } | null;
  } | null;
}

const entities = importEntities();
/** i % 4 = 0 but not % 8: V1 placeholder, V2 has the logo. */
const v2Only = entities[4]!;
/** i % 8 = 0 but not % 16: only V6 has it. */
const v6Only = entities[8]!;
/** i = 0: nowhere. */
const nowhere = entities[0]!;
const withV1 = entities[1]!;

const sourcesOf = (e: (typeof entities)[number]) => ({
  v1CompetitorId: String(e.v1Id),
  v2TeamId: String(e.v2Id),
  v2Sport: e.v2Sport === 'hockey' ? 'ICE_HOCKEY' : 'FOOTBALL',
  v6Logo: e.v6File,
  v6Sport: 'FOOTBALL',
});

const counted = (byRoute: Record<string, number>): number =>
  Object.entries(byRoute)
    .filter(([route]) => /^GET \/v[26]\/[^/]+\/images\//.test(route))
    .reduce((sum, [, n]) => sum + n, 0);

describe('logo fallback chain', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
  });

  it('uses V1 when it has a logo and asks no counted image route', async () => {
    const result = await gql<LogoData>(stack.gateway.url, LOGO, { sources: sourcesOf(withV1) });
    expect(result.errors).toBeUndefined();
    expect(result.data?.logo).toMatchObject({ version: 'V1', placeholder: false, thumbnail: null });
    expect(result.data?.logo?.url).toBe(`/images/v1/competitors/${withV1.v1Id}`);
    expect(counted((await requestCounts(stack.sandbox.url)).byRoute)).toBe(0);
    // The URL is served from the store.
    await resetCounts(stack.sandbox.url);
    const image = await fetch(`${stack.gateway.url}${result.data?.logo?.url ?? ''}`);
    expect(image.status).toBe(200);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('skips the V1 placeholder for V2, and V2 404 for V6 with its thumbnail', async () => {
    const viaV2 = await gql<LogoData>(stack.gateway.url, LOGO, { sources: sourcesOf(v2Only) });
    expect(viaV2.data?.logo).toMatchObject({ version: 'V2', url: `/images/v2/football/teams/${v2Only.v2Id}` });
    const viaV6 = await gql<LogoData>(stack.gateway.url, LOGO, { sources: sourcesOf(v6Only) });
    expect(viaV6.data?.logo).toMatchObject({
      version: 'V6',
      url: `/images/v6/football/teams/${v6Only.v6File}`,
      thumbnail: { url: `/images/v6/football/teams/${v6Only.v6File}!w80`, version: 'V6' },
    });
    const none = await gql<LogoData>(stack.gateway.url, LOGO, { sources: sourcesOf(nowhere) });
    expect(none.errors).toBeUndefined();
    expect(none.data?.logo).toBeNull();
    const counts = (await requestCounts(stack.sandbox.url)).byRoute;
    // v2Only: 1 V2; v6Only: 1 V2 (404) + 1 V6; nowhere: 1 V2 + 1 V6 (both 404).
    expect(counted(counts)).toBe(5);
  });

  it('resolves V1HockeyCompetitor.logo and V2Team.logo through the chain', async () => {
    const result = await gql<{ v2: { team: { logo: { version: string; url: string } | null } } }>(
      stack.gateway.url,
      `query($id: ID!, $v1: ID!) { v2(sport: FOOTBALL) { team(id: $id) { logo(v1CompetitorId: $v1) { version url } } } }`,
      { id: String(v2Only.v2Id), v1: String(v2Only.v1Id) },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.v2.team.logo).toEqual({ version: 'V2', url: `/images/v2/football/teams/${v2Only.v2Id}` });

    const standings = await gql<{
      v1: { hockey: { standings: { entries: Array<{ competitor: { logo: { version: string } | null } }> } } };
    }>(
      stack.gateway.url,
      `{ v1 { hockey { standings(competition: 11, season: 2025) { entries { competitor { logo { version } } } } } } }`,
    );
    expect(standings.errors).toBeUndefined();
    const logos = standings.data?.v1.hockey.standings.entries.map((e) => e.competitor.logo?.version);
    expect(logos?.length).toBeGreaterThan(0);
    expect(new Set(logos)).toEqual(new Set(['V1']));
  });

  it('falls back to V1 during a V2 image incident and does not ask V2 again before Retry-After', async () => {
    const first = entities[12]!; // V1 placeholder, V2 logo
    const second = entities[20]!; // V1 placeholder, V2 logo
    const third = entities[21]!; // V1 logo
    await injectFault(stack.sandbox.url, {
      route: `GET /v2/${first.v2Sport}/images/teams/${first.v2Id}`,
      status: 502,
      headers: { 'retry-after': '60' },
      body: { error: 'Image delivery layer unavailable', code: 'IMAGE_UPSTREAM_UNAVAILABLE' },
    });
    const failed = await gql<LogoData>(stack.gateway.url, LOGO, {
      sources: { ...sourcesOf(first), v6Logo: undefined },
    });
    expect(failed.data?.logo).toBeNull();
    expect(failed.errors?.[0]?.extensions).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE', retryAfter: 60 });

    // Another entity while the incident is open: V2 is not asked at all...
    const blocked = await gql<LogoData>(stack.gateway.url, LOGO, {
      sources: { ...sourcesOf(second), v6Logo: undefined },
    });
    expect(blocked.data?.logo).toBeNull();
    expect(blocked.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_UNAVAILABLE');
    // ...and V1 answers wherever it has the logo.
    const viaV1 = await gql<LogoData>(stack.gateway.url, LOGO, { sources: sourcesOf(third) });
    expect(viaV1.data?.logo?.version).toBe('V1');

    const counts = (await requestCounts(stack.sandbox.url)).byRoute;
    expect(counts[`GET /v2/${first.v2Sport}/images/teams/${first.v2Id}`]).toBe(1);
    expect(counts[`GET /v2/${second.v2Sport}/images/teams/${second.v2Id}`]).toBeUndefined();
  });

  it('serves the chain over HTTP at /images/logo', async () => {
    const response = await fetch(
      `${stack.gateway.url}/images/logo?v1=${v2Only.v1Id}&v2Sport=football&v2=${v2Only.v2Id}`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('x-image-version')).toBe('v2');
    expect(response.headers.get('content-type')).toBe('image/png');
    const none = await fetch(`${stack.gateway.url}/images/logo?v1=${nowhere.v1Id}`);
    expect(none.status).toBe(404);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('keeps imageIds consistent with the import list', () => {
    expect(entities[1]?.v1Id).toBe(imageIds.v1LogoCompetitor);
  });
});
