/**
 * Builds a Dockerfile's stages without Docker (there is no engine on these
 * machines): each stage gets a folder of its own that stands for its root
 * file system, assembled from exactly the files its COPY lines name (from
 * the build context through .dockerignore, or with `--from` from an
 * earlier stage's folder), and its RUN commands run there, in its WORKDIR,
 * with its ENV. Stages that do not depend on each other build at the same
 * time, as BuildKit builds them.
 *
 * What differs from a container, and why:
 * - The host's `node` and `npm` run the commands, not the base image's
 *   (the test runs on each Node line CI tests; the image's is one of them).
 * - `npm` runs with `npm_config_offline=true`: packages come from the npm
 *   cache that CI's own `npm ci` filled, not the network. Every package of
 *   the lock file is still installed by `npm ci`, scripts and all.
 * - Absolute paths in RUN commands and ENV values (`/data`) are taken
 *   inside the stage's folder, and `chown` is recorded rather than run (the
 *   image's `node` user does not exist here): the caller checks what was
 *   handed to whom.
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { chmod, cp, mkdir, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { Stage, Step } from './dockerfile.js';
import type { DockerIgnore } from './dockerignore.js';

const run = promisify(execFile);

export interface BuiltStage {
  readonly stage: Stage;
  /** The folder standing for the stage's `/`. */
  readonly root: string;
  /** Output of its RUN commands, for failure messages. */
  readonly log: string;
}

export interface StageBuildOptions {
  /** The build context (the repository). */
  readonly context: string;
  readonly ignore: DockerIgnore;
  /** Where the stage folders go. */
  readonly workDir: string;
}

/** A path inside a stage, on the host. */
export const inStage = (root: string, path: string): string => join(root, path);

/** Absolute paths of a command or ENV value moved into the stage's folder. */
const reroot = (root: string, text: string): string =>
  text.replace(/(^|[\s=])(\/[^\s;&|'"]*)/g, (_, before: string, path: string) => `${before}${inStage(root, path)}`);

export class StageBuildError extends Error {}

export async function buildStages(
  stages: readonly Stage[],
  options: StageBuildOptions,
): Promise<Map<string, BuiltStage>> {
  const shims = join(options.workDir, 'shims');
  await mkdir(shims, { recursive: true });
  const chownLog = join(options.workDir, 'chown.log');
  await writeFile(join(shims, 'chown'), `#!/bin/sh\necho "$@" >> '${chownLog}'\n`);
  await chmod(join(shims, 'chown'), 0o755);

  const building = new Map<string, Promise<BuiltStage>>();
  const byName = new Map(stages.map((stage) => [stage.name, stage]));

  const build = (stage: Stage): Promise<BuiltStage> => {
    let promise = building.get(stage.name);
    if (promise === undefined) {
      promise = buildOne(stage);
      building.set(stage.name, promise);
    }
    return promise;
  };

  async function buildOne(stage: Stage): Promise<BuiltStage> {
    // Every stage it copies from, first (they may build in parallel).
    const sources = new Map<string, BuiltStage>();
    for (const step of stage.steps) {
      if (step.kind !== 'copy' || step.copy.from === undefined) continue;
      const from = byName.get(step.copy.from);
      if (from === undefined || from.index >= stage.index)
        throw new StageBuildError(`stage ${stage.name}: COPY --from=${step.copy.from} names no earlier stage`);
      sources.set(from.name, await build(from));
    }
    const root = join(options.workDir, `${stage.index}-${stage.name}`);
    await mkdir(inStage(root, stage.workdir), { recursive: true });
    let log = '';
    for (const step of stage.steps) {
      if (step.kind === 'copy')
        await copy(stage, step, root, step.copy.from === undefined ? undefined : sources.get(step.copy.from));
      else log += await runCommand(stage, step, root);
    }
    return { stage, root, log };
  }

  async function copy(
    stage: Stage,
    step: Extract<Step, { kind: 'copy' }> & { workdir: string },
    root: string,
    from: BuiltStage | undefined,
  ): Promise<void> {
    const { sources, destination } = step.copy;
    const target = inStage(root, destination.startsWith('/') ? destination : join(step.workdir, destination));
    const intoDirectory = destination.endsWith('/') || destination === '.' || sources.length > 1;
    for (const source of sources) {
      const label = `stage ${stage.name}: COPY ${from === undefined ? '' : `--from=${from.stage.name} `}${source}`;
      if (/[*?[]/.test(source))
        throw new StageBuildError(`${label}: wildcards are not understood by the container check`);
      let path: string;
      if (from === undefined) {
        if (source.startsWith('/') || source.split('/').includes('..'))
          throw new StageBuildError(`${label}: outside the build context`);
        const normal = source.replace(/^\.\/?/, '').replace(/\/$/, '');
        if (normal !== '' && options.ignore.ignores(normal))
          throw new StageBuildError(`${label}: excluded by .dockerignore`);
        path = join(options.context, normal);
      } else {
        if (!source.startsWith('/')) throw new StageBuildError(`${label}: a path in another stage must be absolute`);
        path = inStage(from.root, source);
      }
      if (!existsSync(path))
        throw new StageBuildError(
          `${label}: no such file${from === undefined ? ' in the build context' : ` in stage ${from.stage.name}`}`,
        );
      if (statSync(path).isDirectory()) {
        // A directory's contents go into the destination, as Docker copies them.
        await mkdir(target, { recursive: true });
        if (from === undefined) {
          await cp(path, target, {
            recursive: true,
            filter: (file) => !options.ignore.ignores(relative(options.context, file)) || file === path,
          });
        } else {
          // Hard links: node_modules is large, and nothing writes to a file after it is copied.
          await run('cp', ['-al', `${path}/.`, target]);
        }
      } else {
        const file = intoDirectory ? join(target, basename(source)) : target;
        await mkdir(join(file, '..'), { recursive: true });
        await cp(path, file);
      }
    }
  }

  async function runCommand(
    stage: Stage,
    step: Extract<Step, { kind: 'run' }> & { workdir: string },
    root: string,
  ): Promise<string> {
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      ...Object.fromEntries(Object.entries(stage.env).map(([key, value]) => [key, reroot(root, value)])),
      PATH: `${shims}:${process.env['PATH'] ?? ''}`,
      npm_config_offline: 'true',
    };
    try {
      const { stdout, stderr } = await run('sh', ['-c', reroot(root, step.command)], {
        cwd: inStage(root, step.workdir),
        env,
        maxBuffer: 64 * 1024 * 1024,
      });
      return `$ ${step.command}\n${stdout}${stderr}`;
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new StageBuildError(
        `stage ${stage.name}: RUN ${step.command} failed:\n${(failed.stdout ?? '') + (failed.stderr ?? failed.message)}`.slice(
          -6_000,
        ),
      );
    }
  }

  // Every stage settles before this returns: none is left writing into a folder the caller removes.
  const settled = await Promise.allSettled(stages.map(build));
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
  return new Map(
    stages.map((stage, index) => [stage.name, (settled[index] as PromiseFulfilledResult<BuiltStage>).value]),
  );
}

/** What `chown` was asked to do during the build, one line of arguments per call. */
export const chownLogOf = (workDir: string): string => join(workDir, 'chown.log');
