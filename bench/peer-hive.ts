/**
 * The bench's peer: Hive Gateway serving a GraphQL Mesh supergraph of three
 * V1 hockey routes, composed by `mesh-compose` with `@omnigraph/json-schema`
 * from samples of the sandbox's own answers. It is another product of half a
 * gigabyte, so it is installed on demand (`npm ci` in bench/peers/hive, from
 * the npm registry alone, versions held by that folder's lock) and only when
 * a run asks for peers.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { freePort } from '../src/net/free-port.js';
import type { Operation } from './workload.js';
import { repoRoot, spawnTs, waitForHttp, type Pinning } from './processes.js';
import type { Service } from './stack.js';

const peerDir = join(repoRoot, 'bench/peers/hive');
const bin = (path: string): string => join(peerDir, 'node_modules', path);

/** The three routes, each as the peer's root field and the upstream path it maps to. */
const routes = [
  { field: 'standings', path: '/v1/hockey/standings?competitions=11&seasonNum=2025' },
  { field: 'news', path: '/v1/hockey/news?competitionId=303&limit=10' },
  { field: 'lines', path: `/v1/hockey/bets/lines?gameId=${hockeyV1Ids.firstGameId}` },
] as const;

/** The same three resources and fields through this gateway's schema. */
export const peerOperation: Operation = {
  name: 'three V1 hockey routes',
  query: /* GraphQL */ `
    query ThreeRoutes($game: ID!) {
      v1 {
        hockey {
          standings(competition: 11, season: 2025) { entries { position points competitor { name } } }
          news(competitionId: 303, limit: 10) { articles { title url } }
          lines(gameId: $game) { moneyline { home away } }
        }
      }
    }
  `,
  variables: { game: String(hockeyV1Ids.firstGameId) },
};

/** The same through the peer's schema, which is the upstream's JSON as Mesh derives it. */
export const peerHiveOperation: Operation = {
  name: 'three V1 hockey routes (Hive Gateway)',
  query: /* GraphQL */ `
    {
      standings { standings { position points competitor { name } } }
      news { data { news { title url } } }
      lines { lines { markets { moneyline { home away } } } }
    }
  `,
};

/** Installs the peer when its folder has no install yet; throws with npm's output when it cannot. */
export function installHive(log: (message: string) => void): void {
  if (existsSync(bin('@graphql-hive/gateway/package.json'))) return;
  log('peers: installing Hive Gateway into bench/peers/hive (npm ci, about 500 MB)');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: peerDir, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`peers: npm ci in ${peerDir} failed:\n${result.stderr}`);
}

/**
 * Composes the supergraph against `sandboxUrl` and starts Hive Gateway on
 * the server core, as a single process (`--fork 1`), so that its CPU is read
 * from one pid as the gateway's is.
 */
export async function startHive(
  pinning: Pinning,
  sandbox: { url: string; apiKey: string },
  started: Array<{ stop(): Promise<void> }>,
): Promise<Service> {
  await mkdir(join(peerDir, '.run'), { recursive: true });
  const runDir = await mkdtemp(join(peerDir, '.run', 'compose-'));
  // Mesh derives each field's type from a sample answer: the sandbox's own.
  for (const route of routes) {
    const response = await fetch(sandbox.url + route.path, { headers: { 'x-api-key': sandbox.apiKey } });
    if (!response.ok) throw new Error(`peers: sample ${route.path} answered ${response.status}`);
    await writeFile(join(runDir, `${route.field}.json`), await response.text());
  }
  await writeFile(join(runDir, 'mesh.config.ts'), meshConfig(sandbox));
  const composed = spawnSync(
    process.execPath,
    [bin('@graphql-mesh/compose-cli/esm/bin.js'), '-o', 'supergraph.graphql'],
    {
      cwd: runDir,
      encoding: 'utf8',
    },
  );
  if (composed.status !== 0) throw new Error(`peers: mesh-compose failed:\n${composed.stdout}${composed.stderr}`);

  const port = await freePort();
  const child = spawnTs(pinning, {
    script: bin('@graphql-hive/gateway/dist/bin.js'),
    args: [
      'supergraph',
      join(runDir, 'supergraph.graphql'),
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--fork',
      '1',
    ],
    compiled: true,
    env: { NODE_ENV: 'production', LOG_LEVEL: 'warn' },
    cpu: pinning.serverCpu,
  });
  started.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthcheck`, child);
  return { url, child };
}

function meshConfig(sandbox: { url: string; apiKey: string }): string {
  const operations = routes.map((route) => ({
    type: 'Query',
    field: route.field,
    path: route.path,
    method: 'GET',
    responseSample: `./${route.field}.json`,
  }));
  return `import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadJSONSchemaSubgraph } from '@omnigraph/json-schema';

export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadJSONSchemaSubgraph('Hockey', ${JSON.stringify({
        endpoint: sandbox.url,
        operationHeaders: { 'x-api-key': sandbox.apiKey },
        operations,
      })}),
    },
  ],
});
`;
}
