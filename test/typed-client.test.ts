/**
 * The typed front-end client of examples/typed-client (docs/clients.md):
 * graphql-codegen's client preset generates its typed documents from the
 * gateway's schema, `tsc` compiles it with its own tsconfig, and it runs
 * one query against a started sandbox and gateway with the gateway's
 * `/possible-types.json` in Apollo's cache. A field it uses that leaves the
 * schema fails the generation: the proof is a copy of the schema without
 * one of them.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const root = resolve(import.meta.dirname, '..');
const example = join(root, 'examples/typed-client');
const bin = (name: string): string => join(root, 'node_modules/.bin', name);

interface Run {
  code: number;
  output: string;
}

function run(command: string, args: readonly string[], extra: NodeJS.ProcessEnv = {}): Promise<Run> {
  // graphql-codegen prints nothing of its errors under NODE_ENV=test, which vitest sets.
  const { NODE_ENV: _test, ...inherited } = process.env;
  const env = { ...inherited, ...extra };
  return new Promise((done) => {
    execFile(command, args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ code, output: `${stdout}${stderr}` });
    });
  });
}

const codegen = (env: NodeJS.ProcessEnv = {}): Promise<Run> =>
  run(bin('graphql-codegen'), ['--config', join(example, 'codegen.ts'), '--verbose'], env);

/** What the example exports, typed here because the root program does not compile the example (its own tsconfig does). */
interface TypedClient {
  run(
    gatewayUrl: string,
    competition?: string,
  ): Promise<{
    rows: Array<{ position: number; points: number; team: string; version: string; nativeId: string }>;
    remaining: number;
  }>;
}

describe('typed client (examples/typed-client)', () => {
  // Generating and compiling are CPU work, not waits: on 2 shared cores they take tens of seconds.
  const compileMs = 180_000;
  let generated: Run;
  beforeAll(async () => {
    generated = await codegen();
  }, compileMs);

  it('generates its typed documents from the current schema', () => {
    expect(generated.output).not.toMatch(/FAILED|✖/);
    expect(generated.code).toBe(0);
    expect(readFileSync(join(example, 'src/gql/graphql.ts'), 'utf8')).toContain('HockeyTableQuery');
  });

  it(
    'compiles with tsc --noEmit against them',
    async () => {
      const compiled = await run(bin('tsc'), ['--noEmit', '-p', join(example, 'tsconfig.json')]);
      expect(compiled.output).toBe('');
      expect(compiled.code).toBe(0);
    },
    compileMs,
  );

  it(
    'fails to generate when a field it uses leaves the schema',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'typed-client-'));
      try {
        cpSync(join(root, 'schema'), join(dir, 'schema'), { recursive: true });
        const hockey = join(dir, 'schema/hockey.graphql');
        const sdl = readFileSync(hockey, 'utf8');
        const without = sdl.replace(/(type V1HockeyStandingsEntry \{[^}]*?)\n {2}points: Int!/, '$1');
        expect(without).not.toBe(sdl);
        writeFileSync(hockey, without);
        const result = await codegen({
          TYPED_CLIENT_SCHEMA: join(dir, 'schema/*.graphql'),
          TYPED_CLIENT_OUT: join(dir, 'gql/'),
        });
        expect(result.code).not.toBe(0);
        expect(result.output).toMatch(/Cannot query field "points" on type "V1HockeyStandingsEntry"/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    compileMs,
  );

  describe('against a sandbox and gateway', () => {
    let stack: TestStack;
    beforeAll(async () => {
      stack = await startStack();
    });
    afterAll(() => stack.close());

    it('reads the league table through Apollo with possibleTypes: every card filled, one counted upstream request', async () => {
      const client = (await import(pathToFileURL(join(example, 'src/client.ts')).href)) as TypedClient;
      const league = stack.sandbox.fixtures.hockeyV1.leagueByStandingsId.get(hockeyV1Ids.topLeague.standingsId)!;
      await resetCounts(stack.sandbox.url);
      const { rows, remaining } = await client.run(stack.gateway.url, String(hockeyV1Ids.topLeague.standingsId));
      expect(rows.map((row) => row.position)).toEqual(Array.from({ length: league.teams.length }, (_, i) => i + 1));
      // Without possibleTypes the fragment on `Team` would be dropped and these undefined.
      expect(rows.map((row) => row.team).sort()).toEqual(league.teams.map((team) => team.name).sort());
      for (const row of rows)
        expect(row).toMatchObject({
          version: 'V1',
          nativeId: expect.stringMatching(/^\d+$/),
          points: expect.any(Number),
        });
      expect(remaining).toBeGreaterThan(0);
      const counts = await requestCounts(stack.sandbox.url);
      expect(counts.byRoute).toEqual({ 'GET /v1/hockey/standings': 1 });
    });
  });
});
