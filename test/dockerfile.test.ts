/**
 * The container recipe, built without Docker (no engine on these machines,
 * issue 29): test/support/stage-builder.ts assembles every stage from
 * exactly the files its COPY lines name, read from the Dockerfile, runs its
 * RUN commands, and this starts the last stage's CMD from its folder with
 * its ENV, on the embedded sandbox: /readyz answers 200 and a query
 * answers. The rest is what only the Dockerfile's text can say: the base
 * image, the user, the signal, no sources in the image.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../src/net/free-port.js';
import { gql } from './support/client.js';
import { stagesOf } from './support/dockerfile.js';
import { parseDockerIgnore } from './support/dockerignore.js';
import { reapOnExit } from './support/reap-on-exit.js';
import { buildStages, chownLogOf, inStage, type BuiltStage } from './support/stage-builder.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const stages = stagesOf(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const ignore = parseDockerIgnore(readFileSync(join(root, '.dockerignore'), 'utf8'));
const final = stages.at(-1);
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('the Dockerfile, read', () => {
  it('has a build stage that runs npm run build, and every stage starts from the newest Node line package.json promises', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = stages.find((stage) => stage.name === 'build');
    expect(build?.steps.some((step) => step.kind === 'run' && step.command === 'npm run build')).toBe(true);
    // One base for every stage: the native addons installed in one stage are loaded by the Node of another.
    expect(new Set(stages.map((stage) => stage.base))).toEqual(new Set([stages[0]?.base]));
    const major = /^node:(\d+)-bookworm-slim$/.exec(stages[0]?.base ?? '')?.[1];
    expect(major, stages[0]?.base).toBeDefined();
    const promised = [20, 22, 24, 26, 28].filter((line) => semver.intersects(`${line}.x`, manifest.engines.node));
    expect(Number(major)).toBe(Math.max(...promised));
  });

  it('runs the compiled output as npm start does (exec form), as a non-root user, stopped by SIGTERM', () => {
    expect(final?.cmd).toEqual(manifest.scripts['start']?.split(' '));
    expect(final?.user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(final?.user);
    expect(
      final?.instructions.some((instruction) => instruction.keyword === 'STOPSIGNAL' && instruction.args === 'SIGTERM'),
    ).toBe(true);
  });

  it('.dockerignore keeps local state and installed packages out of the context', () => {
    for (const pattern of ['node_modules', 'dist', 'data', '.git']) expect(ignore.patterns).toContain(pattern);
    expect(ignore.ignores('node_modules/graphql/package.json')).toBe(true);
    expect(ignore.ignores('src/main.ts')).toBe(false);
  });
});

describe('the Dockerfile, built stage by stage and run', () => {
  let workDir: string;
  let built: Map<string, BuiltStage> | undefined;
  let buildError: unknown;
  let gateway: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'sports-graph-docker-'));
    try {
      built = await buildStages(stages, { context: root, ignore, workDir });
    } catch (error) {
      buildError = error;
    }
    // Two `npm ci` (the dependencies are installed, not linked) and a build: minutes on a busy 2-core machine.
  }, 900_000);
  afterAll(async () => {
    if (gateway !== undefined && gateway.exitCode === null && gateway.signalCode === null) {
      const exited = new Promise((resolve) => gateway?.once('exit', resolve));
      gateway.kill('SIGTERM');
      await exited;
    }
    await rm(workDir, { recursive: true, force: true });
  });

  it('every stage builds from exactly the files its COPY lines name', () => {
    expect(
      buildError === undefined ? undefined : String(buildError instanceof Error ? buildError.message : buildError),
    ).toBeUndefined();
    expect(built?.size).toBe(stages.length);
  });

  it("the last stage's CMD, started from its folder with its ENV, is ready and answers a query", async () => {
    const runtime = built?.get(final?.name ?? '');
    expect(runtime, 'the last stage was built').toBeDefined();
    if (runtime === undefined || final?.cmd === undefined) return;
    const [command, ...args] = final.cmd;
    expect(command).toBe('node');
    const port = await freePort();
    // The image's ENV, with its absolute paths inside the stage's folder; a loopback address and a free port instead of 0.0.0.0:4000.
    const env = Object.fromEntries(
      Object.entries(final.env).map(([key, value]) => [
        key,
        value.startsWith('/') ? inStage(runtime.root, value) : value,
      ]),
    );
    gateway = spawn(process.execPath, args, {
      cwd: inStage(runtime.root, final.workdir),
      env: { PATH: process.env['PATH'] ?? '', ...env, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    reapOnExit(gateway);
    gateway.stdout?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8_000);
    });
    gateway.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-8_000);
    });
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    let status = 0;
    while (status !== 200) {
      if (gateway.exitCode !== null || gateway.signalCode !== null)
        throw new Error(`the image's CMD exited:\n${output}`);
      if (Date.now() > deadline) throw new Error(`/readyz did not answer 200 within 60 s (last ${status}):\n${output}`);
      status = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const answer = await gql<{ sports: Array<{ sport: string }> }>(url, '{ sports { sport } }');
    expect(answer.errors, output).toBeUndefined();
    expect(answer.data?.sports.length).toBeGreaterThan(0);
    // The state lives in the image's DATA_DIR (a volume), not in the application folder.
    expect((await readdir(env['DATA_DIR'] ?? '')).length, output).toBeGreaterThan(0);
  }, 90_000);

  it('the DATA_DIR volume is handed to the user the image runs as', async () => {
    const runtime = built?.get(final?.name ?? '');
    expect(runtime).toBeDefined();
    if (runtime === undefined || final === undefined) return;
    const chowned = (await readFile(chownLogOf(workDir), 'utf8').catch(() => ''))
      .split('\n')
      .map((line) => line.split(' '));
    const dataDir = inStage(runtime.root, final.env['DATA_DIR'] ?? '/data');
    expect(
      chowned.some((words) => words.at(-1) === dataDir && words.at(-2)?.split(':')[0] === final.user),
      JSON.stringify(chowned),
    ).toBe(true);
  });

  it("the image holds the build's output and runtime packages, no sources or dev tools", async () => {
    const runtime = built?.get(final?.name ?? '');
    if (runtime === undefined || final === undefined) throw new Error('the last stage was not built');
    const app = inStage(runtime.root, final.workdir);
    expect((await readdir(app)).sort()).toEqual(['dist', 'node_modules', 'package.json']);
    expect(existsSync(join(app, 'dist', 'main.js'))).toBe(true);
    for (const devTool of ['esbuild', 'tsx', 'vitest', 'typescript'])
      expect(existsSync(join(app, 'node_modules', devTool)), devTool).toBe(false);
  });
});
