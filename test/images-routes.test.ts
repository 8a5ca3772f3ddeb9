/**
 * The gateway's image routes against the sandbox: headers, store, restart,
 * placeholder, V6 type rules, 404 validation, 502 retry, hostile paths.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cyclingIds } from '../sandbox/fixtures/cycling.js';
import { imageIds } from '../sandbox/fixtures/images.js';
import { clearFaults, injectFault, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request with the path sent exactly as written (fetch would normalise `..`). */
function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const errorCode = (response: RawResponse): string =>
  (JSON.parse(response.body.toString('utf8')) as { error: { code: string } }).error.code;
const isPng = (body: Buffer): boolean =>
  body.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

describe('gateway image routes', () => {
  let stack: TestStack;
  const gw = (): string => stack.gateway.url;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());
  beforeEach(async () => {
    await clearFaults(stack.sandbox.url);
    await resetCounts(stack.sandbox.url);
  });

  it('serves a V1 logo with content type, day-long cache, ETag, 304, and stores it across restarts', async () => {
    const path = `/images/v1/competitors/${imageIds.v1LogoCompetitor}?imageVersion=2`;
    const first = await raw(gw(), path);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    expect(isPng(first.body)).toBe(true);
    const etag = String(first.headers['etag']);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);

    const notModified = await raw(gw(), path, { 'if-none-match': etag });
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);

    await stack.stopGateway();
    await stack.restartGateway();
    const again = await raw(gw(), path);
    expect(again.status).toBe(200);
    expect(again.body.equals(first.body)).toBe(true);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v1/football/images/competitors/${imageIds.v1LogoCompetitor}`]).toBe(1);
  });

  it('asks the upstream once for concurrent requests of one image', async () => {
    const path = `/images/v2/football/teams/${imageIds.v2Football.team}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => raw(gw(), path)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/football/images/teams/${imageIds.v2Football.team}`]).toBe(1);
    // Stored: the next request costs nothing.
    await raw(gw(), path);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(1);
  });

  it('answers the V1 placeholder with 404 NOT_FOUND, and returns the 1,466-byte PNG with ?placeholder=keep', async () => {
    const missing = await raw(gw(), `/images/v1/competitors/${imageIds.v1PlaceholderCompetitor}`);
    expect(missing.status).toBe(404);
    expect(errorCode(missing)).toBe('NOT_FOUND');
    const kept = await raw(gw(), `/images/v1/competitors/${imageIds.v1PlaceholderCompetitor}?placeholder=keep`);
    expect(kept.status).toBe(200);
    expect(kept.body.length).toBe(1466);
    expect(isPng(kept.body)).toBe(true);
  });

  it('checks a V2 image 404 against the data route before saying NOT_FOUND', async () => {
    const noImage = await raw(gw(), `/images/v2/football/teams/${imageIds.v2Football.teamWithoutImage}`);
    expect(noImage.status).toBe(404);
    expect(errorCode(noImage)).toBe('NOT_FOUND');
    expect(noImage.body.toString()).toContain('exists but has no image');
    const invalid = await raw(gw(), `/images/v2/football/teams/${imageIds.v2Football.unknownTeam}`);
    expect(invalid.status).toBe(404);
    expect(invalid.body.toString()).toContain('Invalid V2 ID');
    const counts = await requestCounts(stack.sandbox.url);
    expect(counts.byRoute[`GET /v2/football/api/teams/${imageIds.v2Football.unknownTeam}`]).toBe(1);
    expect(counts.byRoute[`GET /v2/football/api/teams/${imageIds.v2Football.teamWithoutImage}`]).toBe(1);
  });

  it('answers a V2 cycling player image 404 without asking /api/players/{id}, which spec 4.9 says does not exist for cycling', async () => {
    const rider = cyclingIds.firstRider + 3;
    const missing = await raw(gw(), `/images/v2/cycling/players/${rider}`);
    expect(missing.status).toBe(404);
    expect(errorCode(missing)).toBe('NOT_FOUND');
    expect(missing.body.toString()).toContain(`/images/v2/cycling/teams/${rider}`);
    expect((await requestCounts(stack.sandbox.url)).byRoute).toEqual({
      [`GET /v2/cycling/images/players/${rider}`]: 1,
    });
  });

  it('serves V6 by type, honours !w80 thumbnails, 404s a name under the wrong type, 400s an unknown type without a request', async () => {
    const full = await raw(gw(), `/images/v6/football/teams/${imageIds.v6.team}`);
    expect(full.status).toBe(200);
    const thumb = await raw(gw(), `/images/v6/football/teams/${imageIds.v6.team}!w80`);
    expect(thumb.status).toBe(200);
    expect(thumb.body.readUInt32BE(16)).toBe(80);
    expect(full.body.readUInt32BE(16)).toBeGreaterThan(80);
    const untyped = await raw(gw(), `/images/v6/football/${imageIds.v6.venue}`);
    expect(untyped.status).toBe(200);
    expect(untyped.headers['content-type']).toBe('image/svg+xml');

    const wrongType = await raw(gw(), `/images/v6/football/players/${imageIds.v6.team}`);
    expect(wrongType.status).toBe(404);
    expect(errorCode(wrongType)).toBe('NOT_FOUND');

    const before = (await requestCounts(stack.sandbox.url)).total;
    const unknownType = await raw(gw(), `/images/v6/football/mascots/${imageIds.v6.team}`);
    expect(unknownType.status).toBe(400);
    expect(errorCode(unknownType)).toBe('BAD_USER_INPUT');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(before);
  });

  it('keeps V6 images only for the image TTL (24 h by default) while logos stay stored', async () => {
    await stack.stopGateway();
    await stack.restartGateway({ CACHE_TTL_IMAGE: '1' }, { freshData: true });
    const v6 = `/images/v6/football/competitions/${imageIds.v6.competition}`;
    const v2 = `/images/v2/hockey/tournaments/${imageIds.v2Hockey.tournament}`;
    expect((await raw(gw(), v6)).status).toBe(200);
    expect((await raw(gw(), v2)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await raw(gw(), v6)).status).toBe(200);
    expect((await raw(gw(), v2)).status).toBe(200);
    const counts = (await requestCounts(stack.sandbox.url)).byRoute;
    expect(counts[`GET /v6/football/images/competitions/${imageIds.v6.competition}`]).toBe(2);
    expect(counts[`GET /v2/hockey/images/tournaments/${imageIds.v2Hockey.tournament}`]).toBe(1);
    await stack.stopGateway();
    await stack.restartGateway();
  });

  it('retries a V2 image 502 with Retry-After once', async () => {
    const id = imageIds.v2Hockey.team;
    await injectFault(stack.sandbox.url, {
      route: `GET /v2/hockey/images/teams/${id}`,
      status: 502,
      headers: { 'retry-after': '1' },
      body: { error: 'Image delivery unavailable', code: 'IMAGE_UPSTREAM_UNAVAILABLE' },
      times: 1,
    });
    const answer = await raw(gw(), `/images/v2/hockey/teams/${id}`);
    expect(answer.status).toBe(200);
    expect((await requestCounts(stack.sandbox.url)).byRoute[`GET /v2/hockey/images/teams/${id}`]).toBe(2);
  });

  it.each([
    '/images/v1/competitors/../../../etc/passwd',
    '/images/v6/football/teams/..%2F..%2Fetc%2Fpasswd',
    '/images/v6/football/teams/a%2Fb.png',
    '/images/v6/football/teams/x.png%0D%0ASet-Cookie:%20a=b',
    '/images/v6/football/http://evil.example/x.png',
    '/images/v6/football/teams/http:%2F%2Fevil.example%2Fx.png',
    `/images/v6/football/teams/${'a'.repeat(600)}.png`,
    '/images/v2/..%2F..%2Fv1/teams/1',
    '/images/v1/competitors/1%00',
    '/images/v2/football/teams/%2e%2e',
    '/images/v6/football/teams/%5C..%5Cwin.ini',
  ])('refuses %s with 400 and no upstream request', async (path) => {
    const answer = await raw(gw(), path);
    expect(answer.status).toBe(400);
    expect(errorCode(answer)).toBe('BAD_USER_INPUT');
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });
});
