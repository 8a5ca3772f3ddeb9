/**
 * Issue 29, item 5: a start-up failure is one clear line. The built gateway
 * (`node dist/main.js`, as `npm start` runs it) with a busy port, a
 * malformed REDIS_URL or a Redis that does not answer exits 2 with one
 * stderr line naming the setting and the fix, without a stack, and starts
 * nothing first: no log line at all (the embedded sandbox, when it starts,
 * is the first thing logged).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '../scripts/build.js';
import { freePort } from '../src/net/free-port.js';
import { reapOnExit } from './support/reap-on-exit.js';

const root = fileURLToPath(new URL('../', import.meta.url));

interface Ended {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderrLines: string[];
}

/** Runs the build's gateway until it exits (killed, and the test failed, past `boundMs`). */
async function runGateway(env: Record<string, string>, dataDir: string, boundMs = 30_000): Promise<Ended> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: root,
    // Nothing inherited that would choose an upstream or a cluster for it.
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  reapOnExit(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const bound = setTimeout(() => child.kill('SIGKILL'), boundMs);
  const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
  clearTimeout(bound);
  return { code, stdout, stderrLines: stderr.split('\n').filter((line) => line !== '') };
}

function expectOneLine(ended: Ended, setting: string): string {
  expect(ended.code, ended.stdout + ended.stderrLines.join('\n')).toBe(2);
  expect(ended.stderrLines).toHaveLength(1);
  const line = ended.stderrLines[0] ?? '';
  expect(line).toContain(setting);
  expect(line).not.toMatch(/\bat .*\(.*:\d+:\d+\)|Error:/);
  // Nothing started, so nothing logged.
  expect(ended.stdout).toBe('');
  return line;
}

describe('start-up failures of the built gateway: exit 2, one line naming the setting and the fix', () => {
  let dataDir: string;
  beforeAll(async () => {
    await ensureBuild({ ifStale: true });
    dataDir = await mkdtemp(join(tmpdir(), 'sports-graph-start-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('a busy PORT: named, with the fix, before the embedded sandbox starts', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const line = expectOneLine(await runGateway({ PORT: String(port) }, dataDir), `PORT ${port}`);
      expect(line).toContain('already in use');
      expect(line).toContain('set PORT to a free port');
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it.each([
    ['localhost:6379', 'must use redis: or rediss:'],
    ['redis://exa mple:6379', 'is not a URL'],
    ['redis://127.0.0.1:99999', 'is not a URL'],
  ])('a malformed REDIS_URL (%s): named, with what a right one looks like', async (redisUrl, what) => {
    const line = expectOneLine(
      await runGateway({ PORT: String(await freePort()), REDIS_URL: redisUrl }, dataDir),
      'REDIS_URL',
    );
    expect(line).toContain(what);
    expect(line).toContain('redis://host:6379');
  });

  it('a REDIS_URL where no Redis answers: named (without its password), with the fix, before anything starts', async () => {
    const redisPort = await freePort();
    const line = expectOneLine(
      await runGateway(
        { PORT: String(await freePort()), REDIS_URL: `redis://:s3cret-pass@127.0.0.1:${redisPort}` },
        dataDir,
      ),
      `REDIS_URL redis://127.0.0.1:${redisPort}`,
    );
    expect(line).toContain('did not answer');
    expect(line).toContain('start Redis there or correct REDIS_URL');
    expect(line).not.toContain('s3cret-pass');
  });
});
