/**
 * `npm test` on a fresh Debian machine with Node only: its `pretest` step
 * (scripts/system-deps.ts) installs what the tests need beyond npm, and
 * does nothing where it is all there.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installPlan, missingPackages, testPackages } from '../scripts/system-deps.js';

const root = fileURLToPath(new URL('../', import.meta.url));

describe('the test suite installs the Debian packages it needs', () => {
  it('names chromium and redis-server on a machine that has neither', () => {
    const missing = missingPackages(testPackages, () => false, '/usr/local/bin:/usr/bin');
    expect(missing.map((pkg) => pkg.name)).toEqual(['chromium', 'redis-server']);
    expect(installPlan(missing, { root: true, hasAptGet: true, hasSudo: false })).toEqual({
      kind: 'install',
      names: ['chromium', 'redis-server'],
      commands: [
        ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'update', '-q'],
        [
          'env',
          'DEBIAN_FRONTEND=noninteractive',
          'apt-get',
          'install',
          '-y',
          '-q',
          '--no-install-recommends',
          'chromium',
          'redis-server',
        ],
      ],
    });
  });

  it('goes through sudo when not root, and finds redis-server on PATH too', () => {
    const missing = missingPackages(testPackages, (path) => path === '/opt/redis/bin/redis-server', '/opt/redis/bin');
    expect(missing.map((pkg) => pkg.name)).toEqual(['chromium']);
    const plan = installPlan(missing, { root: false, hasAptGet: true, hasSudo: true });
    expect(plan.kind === 'install' && plan.commands.every((command) => command[0] === 'sudo')).toBe(true);
  });

  it('says what to run where it cannot install: no apt-get, or neither root nor sudo', () => {
    const missing = missingPackages(testPackages, () => false, '');
    const noApt = installPlan(missing, { root: true, hasAptGet: false, hasSudo: false });
    expect(noApt).toMatchObject({
      kind: 'cannot',
      message: expect.stringContaining('apt-get install -y --no-install-recommends chromium redis-server'),
    });
    const noSudo = installPlan(missing, { root: false, hasAptGet: true, hasSudo: false });
    expect(noSudo).toMatchObject({
      kind: 'cannot',
      message: expect.stringMatching(/As root: apt-get update && apt-get install/),
    });
  });

  it('does nothing, silently, where both are installed (this machine)', () => {
    expect(missingPackages(testPackages, () => true, '')).toEqual([]);
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/system-deps.ts'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({
      status: 0,
      stdout: '',
      stderr: '',
    });
  });

  it('is the first step of npm test', async () => {
    const manifest = (await import('../package.json', { with: { type: 'json' } })).default as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts['pretest']).toMatch(/^tsx scripts\/system-deps\.ts && /);
  });
});
