import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SportsReferencePayload } from '../src/upstream/routes/reference.js';
import type {
  SearchPayload,
  V1AthletesPayload,
  V1LinesPayload,
  V1NewsPayload,
  V1StandingsPayload,
} from '../src/upstream/routes/v1.js';
import { upstreamAssumptions } from '../src/upstream/assumptions.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';

const KEY = 'test-key';
const STANDINGS = '/v1/hockey/standings';
const rateLimit = upstreamAssumptions.rateLimitHeaders;

let sandbox: SandboxHandle;

beforeAll(async () => {
  sandbox = await startSandbox({ apiKey: KEY, allowance: 100_000 });
});

afterAll(async () => {
  await sandbox.close();
});

function get(path: string, init: RequestInit = {}, key: string | null = KEY, base = sandbox): Promise<Response> {
  const headers = new Headers(init.headers);
  if (key !== null) headers.set('x-api-key', key);
  return fetch(`${base.url}${path}`, { ...init, headers });
}

async function getJson<T>(path: string, base = sandbox): Promise<T> {
  const res = await get(path, {}, KEY, base);
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function control(method: string, path: string, body?: unknown, base = sandbox): Promise<Response> {
  return fetch(`${base.url}/__sandbox${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

async function requestCounts(): Promise<{ total: number; byRoute: Record<string, number> }> {
  return (await (await control('GET', '/requests')).json()) as { total: number; byRoute: Record<string, number> };
}

async function addFault(fault: Record<string, unknown>, base = sandbox): Promise<string> {
  const res = await control('POST', '/faults', fault, base);
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('request counting', () => {
  it('counts every non-control request per METHOD + pathname, whatever the answer, and resets', async () => {
    await control('POST', '/requests/reset');
    await get(`${STANDINGS}?competitions=11`);
    await get(`${STANDINGS}?competitions=12&seasonNum=2024`);
    await get(STANDINGS, {}, null); // 401
    await get(STANDINGS, {}, 'wrong'); // 403
    await get('/no/such/route', {}, null); // 404
    await get('/reference/sports', {}, null);
    await control('GET', '/quota'); // control: not counted

    expect(await requestCounts()).toEqual({
      total: 6,
      byRoute: { [`GET ${STANDINGS}`]: 4, 'GET /no/such/route': 1, 'GET /reference/sports': 1 },
    });

    const log = (await (await control('GET', '/requests/log')).json()) as Array<{
      method: string;
      path: string;
      query: string;
      key: string;
    }>;
    expect(log.map((e) => `${e.path}?${e.query} ${e.key}`)).toEqual([
      `${STANDINGS}?competitions=11 valid`,
      `${STANDINGS}?competitions=12&seasonNum=2024 valid`,
      `${STANDINGS}? none`,
      `${STANDINGS}? other`,
      '/no/such/route? none',
      '/reference/sports? none',
    ]);
    expect(JSON.stringify(log)).not.toContain('wrong');

    expect((await control('POST', '/requests/reset')).status).toBe(200);
    expect(await requestCounts()).toEqual({ total: 0, byRoute: {} });
    expect(await (await control('GET', '/requests/log')).json()).toEqual([]);
  });

  it('answers an unknown route with 404 and no key needed', async () => {
    const res = await get('/v1/hockey/nothing', {}, null);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'Route not found' });
  });
});

describe('authentication', () => {
  it('refuses a missing key with 401 and a wrong key with 403, never echoing the key', async () => {
    const missing = await get(STANDINGS, {}, null);
    expect(missing.status).toBe(upstreamAssumptions.missingKeyStatus);
    expect(missing.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await missing.json()).toEqual({ error: 'Missing API key' });

    const wrong = await get(STANDINGS, {}, 'not-the-key-123');
    expect(wrong.status).toBe(upstreamAssumptions.invalidKeyStatus);
    const text = await wrong.text();
    expect(JSON.parse(text)).toEqual({ error: 'Invalid API key' });
    expect(text).not.toContain('not-the-key-123');
    expect([...wrong.headers.values()].join(' ')).not.toContain('not-the-key-123');
  });

  it('serves /reference/sports without a key', async () => {
    const res = await get('/reference/sports', {}, null);
    expect(res.status).toBe(200);
    expect(res.headers.get(rateLimit.limit)).toBeNull();
  });
});

describe('daily allowance', () => {
  let now = Date.UTC(2026, 0, 15, 12, 0, 0);
  let small: SandboxHandle;

  beforeAll(async () => {
    small = await startSandbox({ apiKey: KEY, allowance: 3, clock: () => now });
  });
  afterAll(async () => {
    await small.close();
  });

  it('spends on 2xx and 404, not on 400 or free routes, then answers 429 with Retry-After until the reset', async () => {
    const remaining: Array<string | null> = [];
    const ok = await get(STANDINGS, {}, KEY, small);
    remaining.push(ok.headers.get(rateLimit.remaining));
    expect(ok.headers.get(rateLimit.limit)).toBe('3');
    expect(ok.headers.get(rateLimit.reset)).toBe(String(12 * 3600));

    const bad = await get(`${STANDINGS}?competitions=abc`, {}, KEY, small);
    expect(bad.status).toBe(400);
    remaining.push(bad.headers.get(rateLimit.remaining));

    await get('/reference/sports', {}, null, small);
    await get(STANDINGS, {}, null, small); // 401: the key is unknown, nothing to spend

    const missing = await get('/v1/hockey/athletes?athletes=1', {}, KEY, small);
    expect(missing.status).toBe(404);
    remaining.push(missing.headers.get(rateLimit.remaining));

    const last = await get(STANDINGS, {}, KEY, small);
    remaining.push(last.headers.get(rateLimit.remaining));
    expect(remaining).toEqual(['2', '2', '1', '0']);

    const refused = await get(STANDINGS, {}, KEY, small);
    expect(refused.status).toBe(upstreamAssumptions.quotaExhaustedStatus);
    expect(await refused.json()).toEqual({ error: 'Daily request allowance exhausted' });
    expect(refused.headers.get('retry-after')).toBe(String(12 * 3600));
    expect(refused.headers.get(rateLimit.limit)).toBe('3');
    expect(refused.headers.get(rateLimit.remaining)).toBe('0');
    expect(refused.headers.get(rateLimit.reset)).toBe(String(12 * 3600));

    now = Date.UTC(2026, 0, 16, 0, 0, 1); // past the 00:00 UTC reset
    const fresh = await get(STANDINGS, {}, KEY, small);
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get(rateLimit.remaining)).toBe('2');
  });

  it('exposes and sets the ledger through /__sandbox/quota', async () => {
    const set = await control('POST', '/quota', { used: 3, limit: 5 }, small);
    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ limit: 5, used: 3, remaining: 2 });
    expect(await (await control('GET', '/quota', undefined, small)).json()).toMatchObject({
      limit: 5,
      used: 3,
      remaining: 2,
    });
    expect((await control('POST', '/quota', { used: -1 }, small)).status).toBe(400);
  });
});

describe('faults', () => {
  afterEach(async () => {
    await control('DELETE', '/faults');
  });

  it('answers an injected status with its headers, and only `times` times', async () => {
    await addFault({ route: `GET ${STANDINGS}`, status: 502, headers: { 'retry-after': '2' }, times: 1 });
    const before = (await (await control('GET', '/quota')).json()) as { used: number };

    const faulted = await get(STANDINGS);
    expect(faulted.status).toBe(502);
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(await faulted.json()).toEqual({ error: 'Bad gateway: upstream provider failed', code: 'UPSTREAM_ERROR' });
    const after = (await (await control('GET', '/quota')).json()) as { used: number };
    expect(after.used).toBe(before.used); // a faulted request spends nothing

    expect((await get(STANDINGS)).status).toBe(200);
    expect(await (await control('GET', '/faults')).json()).toEqual({ faults: [] });
  });

  it('gives 504 the upstream_timeout code and applies "*" to every route', async () => {
    await addFault({ route: '*', status: 504 });
    for (const path of [STANDINGS, '/search?q=a', '/reference/sports']) {
      const res = await get(path);
      expect(res.status).toBe(504);
      expect(await res.json()).toEqual({ error: 'Gateway timeout', code: 'upstream_timeout' });
    }
  });

  it('clears faults of one route only', async () => {
    await addFault({ route: `GET ${STANDINGS}`, status: 500 });
    await addFault({ route: 'GET /search', status: 500 });
    const cleared = await control('DELETE', `/faults?route=${encodeURIComponent(`GET ${STANDINGS}`)}`);
    expect(await cleared.json()).toEqual({ cleared: 1 });
    expect((await get(STANDINGS)).status).toBe(200);
    expect((await get('/search?q=a')).status).toBe(500);
  });

  it('rejects a malformed fault', async () => {
    expect((await control('POST', '/faults', { route: '/v1/hockey/standings' })).status).toBe(400);
    expect((await control('POST', '/faults', { route: '*', kind: 'explode' })).status).toBe(400);
    expect((await control('POST', '/faults', { route: '*', times: 0 })).status).toBe(400);
  });

  it('reset: the connection is cut mid-body', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'reset' });
    await expect(get(STANDINGS).then((res) => res.arrayBuffer())).rejects.toThrow();
  });

  it('hang: no answer until the client gives up', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'hang' });
    const started = Date.now();
    await expect(get(STANDINGS, { signal: AbortSignal.timeout(300) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('malformed: 200 JSON whose body does not parse', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'malformed' });
    const res = await get(STANDINGS);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expect(res.json()).rejects.toThrow(SyntaxError);
  });

  it('huge: a valid JSON body of about 50 MB', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'huge' });
    const res = await get(STANDINGS);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeGreaterThan(50_000_000);
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    const body = JSON.parse(text) as V1StandingsPayload;
    expect(body.standings).toHaveLength(32);
  });

  it('trickle: headers at once, then one byte per second', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'trickle' });
    const abort = new AbortController();
    const res = await get(STANDINGS, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.byteLength).toBe(1);
    expect(new TextDecoder().decode(first?.value)).toBe('{');
    abort.abort();
  });

  it('drop-idle: a normal answer that closes the connection', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'drop-idle', times: 1 });
    const res = await get(STANDINGS);
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(((await res.json()) as V1StandingsPayload).standings).toHaveLength(32);
    expect((await get(STANDINGS)).status).toBe(200);
  });

  it('latency: a delay fault answers normally, late', async () => {
    await addFault({ route: `GET ${STANDINGS}`, kind: 'delay', latencyMs: 200 });
    const started = Date.now();
    const res = await get(STANDINGS);
    expect(res.status).toBe(200);
    expect(res.headers.get(rateLimit.remaining)).not.toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
  });
});

describe('/reference/sports', () => {
  it('lists every sport with its slug per version', async () => {
    const { sports } = await getJson<SportsReferencePayload>('/reference/sports');
    const bySport = new Map(sports.map((s) => [s.sport, s]));
    expect(bySport.get('ice_hockey')).toEqual({
      sport: 'ice_hockey',
      name: 'Ice hockey',
      slugs: { v1: 'hockey', v2: 'hockey', v3: 'hockey', v4: 'ice-hockey', v6: null },
    });
    expect(bySport.get('water_polo')?.slugs).toEqual({
      v1: null,
      v2: 'waterpolo',
      v3: 'water-polo',
      v4: null,
      v6: 'waterpolo',
    });
    expect(bySport.get('beach_volleyball')?.slugs.v2).toBe('beach-volley');
    expect(bySport.get('table_tennis')?.slugs.v4).toBe('table-tennis');
    expect(sports.length).toBeGreaterThanOrEqual(25);
  });
});

describe('hockey V1 standings', () => {
  it('serves a consistent, ordered 32-team table for the current season by default', async () => {
    const res = await get(STANDINGS);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const table = (await res.json()) as V1StandingsPayload;
    expect(table.competitionId).toBe(11);
    expect(table.seasonNum).toBe(2026);
    expect(table.standings).toHaveLength(32);
    expect(new Set(table.standings.map((e) => e.competitor.id)).size).toBe(32);
    table.standings.forEach((entry, i) => {
      expect(entry.position).toBe(i + 1);
      expect(entry.points).toBe(2 * entry.wins + (entry.overtimeLosses ?? 0));
      expect(entry.played).toBe(entry.wins + entry.losses + (entry.overtimeLosses ?? 0));
      expect(entry.competitor.score).toBe(entry.points);
      expect(entry.competitor.imageUrl).toBe(
        `${sandbox.url}/v1/football/images/competitors/${entry.competitor.id}?imageVersion=${entry.competitor.imageVersion}`,
      );
      expect(entry.goalsFor).toBeGreaterThan(0);
      const next = table.standings[i + 1];
      if (next !== undefined) expect(entry.points).toBeGreaterThanOrEqual(next.points);
    });
  });

  it('serves other seasons and the second league, and 404s unknown ones', async () => {
    const current = await getJson<V1StandingsPayload>(`${STANDINGS}?competitions=11&seasonNum=2026`);
    const older = await getJson<V1StandingsPayload>(`${STANDINGS}?competitions=11&seasonNum=2024`);
    expect(older.seasonNum).toBe(2024);
    expect(older.standings.every((e) => e.played === 82)).toBe(true);
    expect(older.standings.map((e) => e.points)).not.toEqual(current.standings.map((e) => e.points));
    expect((await getJson<V1StandingsPayload>(`${STANDINGS}?competitions=12`)).standings).toHaveLength(14);

    for (const query of ['competitions=303', 'competitions=11&seasonNum=2023']) {
      const res = await get(`${STANDINGS}?${query}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: 'Competition not found' });
    }
    expect((await get(`${STANDINGS}?seasonNum=twenty`)).status).toBe(400);
  });
});

describe('hockey V1 lines', () => {
  it('serves three markets, a puck line only where available, and 404 for unknown games', async () => {
    const { games } = sandbox.fixtures.hockeyV1;
    expect(games.length).toBeGreaterThanOrEqual(60);
    const withPuck = await getJson<V1LinesPayload>(`/v1/hockey/bets/lines?gameId=${hockeyV1Ids.firstGameId}`);
    expect(withPuck.lines.gameId).toBe(hockeyV1Ids.firstGameId);
    const { moneyline, puckLine, totalGoals } = withPuck.lines.markets;
    expect(moneyline?.home).toBeGreaterThan(1);
    expect(Math.abs(puckLine?.line ?? 0)).toBe(1.5);
    expect([5.5, 6.5]).toContain(totalGoals?.line);

    const without = games.filter((g) => g.lines.lines.markets.puckLine === undefined);
    expect(without.length).toBeGreaterThan(0);
    const noPuck = await getJson<V1LinesPayload>(`/v1/hockey/bets/lines?gameId=${without[0]?.id ?? 0}`);
    expect(noPuck.lines.markets.puckLine).toBeUndefined();
    expect(noPuck.lines.markets.moneyline).toBeDefined();

    const unknown = await get('/v1/hockey/bets/lines?gameId=999999');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'Game not found' });
    expect((await get('/v1/hockey/bets/lines')).status).toBe(400);
  });
});

describe('hockey V1 news', () => {
  it('lists articles newest first with offsets, and only the sources they cite', async () => {
    const all = await getJson<V1NewsPayload>('/v1/hockey/news');
    expect(all.success).toBe(true);
    expect(all.type).toBe('news');
    expect(all.data.news.length).toBeGreaterThanOrEqual(75);
    expect(all.data.newsSources).toHaveLength(6);
    const times = all.data.news.map((a) => Date.parse(a.publishDate));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const article of all.data.news)
      expect(article.publishDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);

    const limited = await getJson<V1NewsPayload>('/v1/hockey/news?competitionId=303&limit=10');
    expect(limited.data.news).toHaveLength(10);
    const cited = new Set(limited.data.news.map((a) => a.sourceId));
    expect(new Set(limited.data.newsSources.map((s) => s.id))).toEqual(cited);
  });

  it('filters by competition and by game', async () => {
    const { news } = sandbox.fixtures.hockeyV1;
    const second = await getJson<V1NewsPayload>('/v1/hockey/news?competitionId=304');
    expect(second.data.news.map((a) => a.id)).toEqual(
      news.filter((n) => n.competitionId === 304).map((n) => n.article.id),
    );
    expect(second.data.news.length).toBeGreaterThan(0);

    const gameId = hockeyV1Ids.firstGameId;
    const forGame = await getJson<V1NewsPayload>(`/v1/hockey/news?competitionId=303&gameId=${gameId}`);
    expect(forGame.data.news.length).toBeGreaterThanOrEqual(2);
    expect(forGame.data.news.map((a) => a.id)).toEqual(
      news.filter((n) => n.gameId === gameId).map((n) => n.article.id),
    );

    // The standings ID is not a news ID (spec 4.1).
    expect((await get('/v1/hockey/news?competitionId=11')).status).toBe(404);
    expect((await get('/v1/hockey/news?limit=0')).status).toBe(400);
  });
});

describe('hockey V1 athletes and search', () => {
  it('has a 23-man roster for each of the 32 teams, with distinct IDs', () => {
    const { athletes } = sandbox.fixtures.hockeyV1;
    expect(athletes).toHaveLength(32 * 23);
    expect(new Set(athletes.map((a) => a.id)).size).toBe(athletes.length);
    const firstTeam = athletes.filter((a) => a.team.id === hockeyV1Ids.firstTopLeagueTeamId);
    expect(new Set(firstTeam.map((a) => a.position))).toEqual(new Set(['G', 'D', 'C', 'LW', 'RW']));
  });

  it('serves every athlete field with fullDetails, and 404/400 for bad IDs', async () => {
    const skater = sandbox.fixtures.hockeyV1.athletes.find((a) => a.position === 'C');
    const { athletes } = await getJson<V1AthletesPayload>(
      `/v1/hockey/athletes?athletes=${skater?.id ?? 0}&fullDetails=true`,
    );
    const [athlete] = athletes;
    expect(athlete).toEqual(skater);
    for (const field of [
      'position',
      'jerseyNumber',
      'birthDate',
      'nationality',
      'heightCm',
      'weightKg',
      'shoots',
      'imageVersion',
      'bio',
      'team',
      'statistics',
      'currentSeason',
    ] as const) {
      expect(athlete?.[field], field).toBeDefined();
    }
    const season = athlete?.currentSeason;
    expect(season?.points).toBe((season?.goals ?? 0) + (season?.assists ?? 0));
    expect(athlete?.statistics?.length).toBeGreaterThan(0);

    const missing = await get('/v1/hockey/athletes?athletes=1');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Athlete not found' });
    expect((await get('/v1/hockey/athletes?athletes=abc')).status).toBe(400);
  });

  it('finds athletes and competitors by case-insensitive substring, at most 20', async () => {
    const athlete = sandbox.fixtures.hockeyV1.athletes[40];
    const name = athlete?.name ?? '';
    const byName = await getJson<SearchPayload>(`/search?q=${encodeURIComponent(name.toUpperCase())}&sport=hockey`);
    // An athlete's hit carries the nationality as its country (what counterparts compare).
    expect(byName.results[0]).toEqual({
      type: 'athlete',
      id: athlete?.id,
      name,
      sport: 'hockey',
      version: 'v1',
      country: athlete?.nationality,
    });
    // Case and diacritics are folded, as a provider's search engine does.
    expect((await getJson<SearchPayload>('/search?q=MUNCHEN')).results.map((hit) => hit.name)).toEqual([
      'FC Bayern München',
    ]);

    const team = await getJson<SearchPayload>('/search?q=maple');
    expect(team.results).toContainEqual({
      type: 'competitor',
      id: expect.any(Number),
      name: 'Toronto Maple Leafs',
      sport: 'hockey',
      version: 'v1',
    });

    expect((await getJson<SearchPayload>('/search?q=a')).results).toHaveLength(20);
    expect((await get('/search')).status).toBe(400);
    expect((await get('/search?q=%20')).status).toBe(400);
  });
});

describe('lifecycle and latency', () => {
  it('delays upstream routes by latencyMs but not control routes, and close() ends hung requests', async () => {
    const slow = await startSandbox({ latencyMs: 150 });
    let started = Date.now();
    expect((await fetch(`${slow.url}/reference/sports`)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    started = Date.now();
    expect((await fetch(`${slow.url}/__sandbox/requests`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(140);

    await addFault({ route: '*', kind: 'hang' }, slow);
    const hung = fetch(`${slow.url}/reference/sports`);
    const outcome = hung.then(
      () => 'answered',
      () => 'rejected',
    );
    await new Promise((resolve) => setTimeout(resolve, 250));
    await slow.close();
    expect(await outcome).toBe('rejected');
  });
});

describe('determinism', () => {
  it('gives the same data for the same seed and different data for another', async () => {
    const [a, b, c] = await Promise.all([
      startSandbox({ seed: 7 }),
      startSandbox({ seed: 7 }),
      startSandbox({ seed: 8 }),
    ]);
    try {
      const table = async (s: SandboxHandle): Promise<string> => {
        const res = await fetch(`${s.url}${STANDINGS}?seasonNum=2025`, { headers: { 'x-api-key': 'sandbox-key' } });
        return (await res.text()).replaceAll(s.url, 'ORIGIN');
      };
      expect(await table(a)).toBe(await table(b));
      expect(await table(a)).not.toBe(await table(c));
      expect(JSON.stringify(a.fixtures.hockeyV1.athletes)).toBe(JSON.stringify(b.fixtures.hockeyV1.athletes));
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});
