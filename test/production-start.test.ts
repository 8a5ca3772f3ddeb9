/**
 * The gateway as an operator starts it (issue 19): `npm run build` bundles
 * it into dist/, `npm start` runs that with `node` alone (no TypeScript
 * loader, no codegen), and builds again only when the sources changed.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../scripts/build.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { gql, requestCounts } from './support/client.js';
import { startGatewayProcess, type GatewayProcess } from './support/gateway-process.js';

const API_KEY = 'production-start-key';

describe('production start', () => {
  let sandbox: SandboxHandle;
  let firstBuild: Awaited<ReturnType<typeof ensureBuild>>;
  beforeAll(async () => {
    firstBuild = await ensureBuild({ ifStale: true });
    sandbox = await startSandbox({ port: 0, apiKey: API_KEY, allowance: 7_500 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  it('npm start runs dist/main.js with node, after a check that builds only when the sources changed', async () => {
    const scripts = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start']).toBe('node dist/main.js');
    expect(scripts['prestart']).toBe('tsx scripts/build.ts --if-stale');
    expect(scripts['build']).toBe('tsx scripts/build.ts');
    // The build is current now: checking again builds nothing and keeps the stamp.
    const again = await ensureBuild({ ifStale: true });
    expect(again.built).toBe(false);
    expect(again.stamp).toEqual(firstBuild.stamp);
    expect(JSON.parse(await readFile('dist/build-stamp.json', 'utf8'))).toEqual(firstBuild.stamp);
  });

  it('the compiled gateway answers a query with exactly the upstream requests it needs, and is ready', async () => {
    let gateway: GatewayProcess | undefined;
    try {
      gateway = await startGatewayProcess({
        SPORTS_API_BASE_URL: sandbox.url,
        SPORTS_API_KEY: API_KEY,
        SPORTS_API_PLAN: 'pro',
      });
      expect(gateway.process.spawnargs.slice(1)).toEqual(['dist/main.js']);
      const before = (await requestCounts(sandbox.url)).byRoute['GET /v1/hockey/standings'] ?? 0;
      const result = await gql<{ v1: { hockey: { standings: { entries: unknown[] } } }; sports: unknown[] }>(
        gateway.url,
        `{ v1 { hockey { standings(competition: ${hockeyV1Ids.topLeague.standingsId}) { entries { position } } } } sports { sport } }`,
      );
      expect(result.errors).toBeUndefined();
      expect(result.data?.v1.hockey.standings.entries).toHaveLength(32);
      expect((await requestCounts(sandbox.url)).byRoute['GET /v1/hockey/standings']).toBe(before + 1);
      const ready = await fetch(`${gateway.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, reasons: [] });
    } finally {
      await gateway?.stop();
    }
  });

  it("the compiled gateway serves GraphiQL with the example tabs, read from the build's own copy of examples/operations", async () => {
    let gateway: GatewayProcess | undefined;
    try {
      gateway = await startGatewayProcess({
        SPORTS_API_BASE_URL: sandbox.url,
        SPORTS_API_KEY: API_KEY,
        SPORTS_API_PLAN: 'pro',
      });
      const page = await (await fetch(`${gateway.url}/graphql`, { headers: { accept: 'text/html' } })).text();
      const file = /"(\/graphiql\/examples-[0-9a-f]{16}\.js)"/.exec(page)?.[1];
      expect(file).toBeDefined();
      const script = await (await fetch(`${gateway.url}${file ?? ''}`)).text();
      for (const name of [
        'HockeyNight',
        'WorldCup',
        'V2Discovery',
        'V6TeamStats',
        'LogoFallback',
        'OddsSnapshots',
        'Allowance',
      ])
        expect(script).toContain(name);
      // The tab holds the file exactly as the build copied it.
      expect(script).toContain(
        JSON.stringify(await readFile('dist/examples/operations/1-hockey-night.graphql', 'utf8')),
      );
    } finally {
      await gateway?.stop();
    }
  });
});
