/**
 * The hand-written baseline endpoint, in its own process on the gateway's
 * core: the same JSON as the gateway's answer to the representative query.
 *
 * - `GET /warm`: from a shared cache (the gateway's own ResponseCache class,
 *   same TTL classes), filled by the first request: the work left is cache
 *   lookups, mapping and JSON.stringify.
 * - `GET /cold`: the six upstream calls made in parallel on every request,
 *   then mapping and JSON.stringify.
 * - `GET /healthz`.
 *
 * Env: `BENCH_UPSTREAM_URL`, `SPORTS_API_KEY`, `BENCH_IDS` (JSON), `PORT`.
 */
import { createServer } from 'node:http';
import { ResponseCache } from '../../src/upstream/cache.js';
import { defaultCacheTtls } from '../../src/upstream/cache-ttls.js';
import { DirectRest, type RepresentativeIds } from './rest.js';
import { shapeRepresentative, type RepresentativePayloads } from './shape.js';

const rest = new DirectRest(process.env['BENCH_UPSTREAM_URL'] ?? '', process.env['SPORTS_API_KEY'] ?? '');
const ids = JSON.parse(process.env['BENCH_IDS'] ?? '{}') as RepresentativeIds;
const slug = await rest.hockeyV2Slug();
const cache = new ResponseCache({ maxBytes: 64 * 1024 * 1024, maxStaleMs: 0 });

/** Each resource is its own cache entry with its own TTL class, as in the gateway. */
async function cached<T>(key: string, ttlSeconds: number, path: string): Promise<T> {
  const result = await cache.get<T>(key, ttlSeconds * 1000, async () => ({ value: await rest.get<T>(path), size: 1 }));
  return result.value;
}

async function warm(): Promise<RepresentativePayloads> {
  const [standings, news, lines, worldCupStandings, team, tournament] = await Promise.all([
    cached<RepresentativePayloads['standings']>(
      'standings',
      defaultCacheTtls.standings,
      '/v1/hockey/standings?competitions=11&seasonNum=2025',
    ),
    cached<RepresentativePayloads['news']>('news', defaultCacheTtls.news, '/v1/hockey/news?competitionId=303&limit=10'),
    cached<RepresentativePayloads['lines']>(
      'lines',
      defaultCacheTtls.lines,
      `/v1/hockey/bets/lines?gameId=${ids.game}`,
    ),
    cached<RepresentativePayloads['worldCupStandings']>('wc', defaultCacheTtls.worldCup, '/api/v1/world-cup/standings'),
    cached<RepresentativePayloads['team']>('team', defaultCacheTtls.v2Entity, `/v2/${slug}/api/teams/${ids.team}`),
    cached<RepresentativePayloads['tournament']>(
      'tournament',
      defaultCacheTtls.v2Entity,
      `/v2/${slug}/api/tournaments/${ids.tournament}`,
    ),
  ]);
  return { standings, news, lines, worldCupStandings, team, tournament, v2Slug: slug };
}

const server = createServer((req, res) => {
  const answer = (payloads: Promise<RepresentativePayloads>): void => {
    payloads.then(
      (value) => {
        const body = JSON.stringify(shapeRepresentative(value));
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
        });
        res.end(body);
      },
      (error: unknown) => {
        res.writeHead(502).end(String(error));
      },
    );
  };
  if (req.url === '/warm') answer(warm());
  else if (req.url === '/cold') answer(rest.representative(ids, slug));
  else if (req.url === '/healthz') res.writeHead(200).end('{"status":"ok"}');
  else res.writeHead(404).end();
});
server.listen(Number(process.env['PORT'] ?? '0'), '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void rest.close().then(() => process.exit(0));
  });
}
