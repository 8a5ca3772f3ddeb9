/**
 * The Debian packages the test suite needs beyond Node, installed when
 * missing; run by `npm test` (its `pretest` step) and by `.ci/run`, so that a
 * fresh Debian machine with Node and nothing else passes with the README's
 * one command:
 *
 * - `chromium`: the browser tests drive Debian's own Chromium through
 *   playwright-core (never a downloaded browser: the machine may reach
 *   nothing but the Debian mirror and the npm registry);
 * - `redis-server`: the cluster tests start their own on free loopback ports.
 *
 * Nothing happens when both are there (the usual case: one `stat` each).
 * Otherwise it says what it installs and runs apt-get, through sudo when not
 * root. Without apt-get, or as a user without sudo, it names the packages
 * and the one-liner, and exits 1: the tests would fail later with less to
 * go on.
 */
import { spawnSync } from 'node:child_process';
import { constants, accessSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

export interface SystemPackage {
  /** The Debian package. */
  readonly name: string;
  /** Where the tests look for it: any one of these executable is enough. */
  readonly binaries: readonly string[];
  /** Also found on PATH under this name. */
  readonly onPath?: string;
}

/** What the tests use, where they look for it (test/browser-*.test.ts, test/support/redis-server.ts). */
export const testPackages: readonly SystemPackage[] = [
  { name: 'chromium', binaries: ['/usr/bin/chromium'] },
  { name: 'redis-server', binaries: ['/usr/bin/redis-server'], onPath: 'redis-server' },
];

export type Probe = (path: string) => boolean;

export const isExecutable: Probe = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The packages none of whose binaries is executable. */
export function missingPackages(
  packages: readonly SystemPackage[],
  probe: Probe,
  path: string | undefined,
): SystemPackage[] {
  const dirs = (path ?? '').split(delimiter).filter((dir) => dir !== '');
  return packages.filter((pkg) => {
    const candidates = [
      ...pkg.binaries,
      ...(pkg.onPath === undefined ? [] : dirs.map((dir) => join(dir, pkg.onPath!))),
    ];
    return !candidates.some(probe);
  });
}

export interface Installer {
  /** Whether this process runs as root. */
  readonly root: boolean;
  readonly hasAptGet: boolean;
  readonly hasSudo: boolean;
}

export type Plan =
  | { readonly kind: 'nothing' }
  | { readonly kind: 'install'; readonly commands: ReadonlyArray<readonly string[]>; readonly names: readonly string[] }
  | { readonly kind: 'cannot'; readonly message: string };

/** What to do about `missing`: the apt-get commands to run, or why they cannot run here. */
export function installPlan(missing: readonly SystemPackage[], installer: Installer): Plan {
  if (missing.length === 0) return { kind: 'nothing' };
  const names = missing.map((pkg) => pkg.name);
  const oneLiner = `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${names.join(' ')}`;
  if (!installer.hasAptGet) {
    return {
      kind: 'cannot',
      message: `The tests need ${names.join(' and ')} (Debian's packages; apt-get was not found). On Debian: ${oneLiner}`,
    };
  }
  if (!installer.root && !installer.hasSudo) {
    return {
      kind: 'cannot',
      message: `The tests need ${names.join(' and ')}. As root: ${oneLiner.replaceAll('sudo ', '')}`,
    };
  }
  const prefix = installer.root ? [] : ['sudo'];
  const env = ['env', 'DEBIAN_FRONTEND=noninteractive'];
  return {
    kind: 'install',
    names,
    commands: [
      [...prefix, ...env, 'apt-get', 'update', '-q'],
      [...prefix, ...env, 'apt-get', 'install', '-y', '-q', '--no-install-recommends', ...names],
    ],
  };
}

function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(delimiter).some((dir) => dir !== '' && isExecutable(join(dir, command)));
}

function main(): void {
  const missing = missingPackages(testPackages, isExecutable, process.env['PATH']);
  const plan = installPlan(missing, {
    root: process.getuid?.() === 0,
    hasAptGet: onPath('apt-get'),
    hasSudo: onPath('sudo'),
  });
  if (plan.kind === 'nothing') return;
  if (plan.kind === 'cannot') {
    process.stderr.write(`system-deps: ${plan.message}\n`);
    process.exit(1);
  }
  process.stdout.write(`system-deps: installing Debian's ${plan.names.join(' and ')} for the tests (once)\n`);
  for (const [command = '', ...args] of plan.commands) {
    const run = spawnSync(command, args, { stdio: 'inherit' });
    if (run.status !== 0) {
      process.stderr.write(
        `system-deps: ${[command, ...args].join(' ')} failed (${run.error?.message ?? `exit ${String(run.status)}`})\n`,
      );
      process.exit(1);
    }
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
