/**
 * The container recipe (issue 19) cannot be built on these machines (no
 * Docker); this checks what can be: its stages, that every file it copies
 * from the repository exists and is not excluded by .dockerignore, that
 * the image it ends with runs the compiled output as `npm start` does, as
 * a user other than root, and carries no sources.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

interface Instruction {
  readonly keyword: string;
  readonly args: string;
  readonly stage: number;
}

/** Instructions in order, continuation lines joined, comments dropped; `stage` counts FROMs from 0. */
function parseDockerfile(text: string): Instruction[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  let stage = -1;
  return logical.map((line) => {
    const [keyword = '', ...rest] = line.split(/\s+/);
    if (keyword.toUpperCase() === 'FROM') stage += 1;
    return { keyword: keyword.toUpperCase(), args: rest.join(' '), stage };
  });
}

const dockerfile = parseDockerfile(readFileSync('Dockerfile', 'utf8'));
const ignored = readFileSync('.dockerignore', 'utf8').split('\n').map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#'));
const stages = dockerfile.filter((instruction) => instruction.keyword === 'FROM').map((instruction) => /\bAS\s+(\S+)/i.exec(instruction.args)?.[1]);
const finalStage = stages.length - 1;
const inFinal = dockerfile.filter((instruction) => instruction.stage === finalStage);

describe('Dockerfile', () => {
  it('is multi-stage: a build stage runs npm run build, and the image is made of later stages', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const build = dockerfile.filter((instruction) => instruction.stage === stages.indexOf('build'));
    expect(build.some((instruction) => instruction.keyword === 'RUN' && instruction.args === 'npm run build')).toBe(true);
    for (const copy of dockerfile.filter((instruction) => instruction.keyword === 'COPY' && instruction.args.startsWith('--from='))) {
      const from = /^--from=(\S+)/.exec(copy.args)?.[1];
      expect(stages.slice(0, copy.stage), copy.args).toContain(from);
    }
  });

  it('copies from the repository only files that exist and that .dockerignore lets through', () => {
    const copied = dockerfile
      .filter((instruction) => (instruction.keyword === 'COPY' || instruction.keyword === 'ADD') && !instruction.args.startsWith('--from='))
      .flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    expect(copied.length).toBeGreaterThan(0);
    for (const source of copied) {
      expect(existsSync(source), source).toBe(true);
      expect(ignored.some((pattern) => source === pattern || source.startsWith(`${pattern}/`)), `${source} is ignored`).toBe(false);
    }
    // Everything the build reads is copied into the build stage (scripts/build.ts lists its inputs).
    for (const input of ['package.json', 'package-lock.json', 'tsconfig.json', 'scripts/build.ts', 'src', 'resolvers', 'schema', 'examples/operations']) {
      expect(copied, input).toContain(input);
    }
  });

  it('the image runs the compiled output as npm start does, as a non-root user, with no sources in it', () => {
    const cmd = inFinal.filter((instruction) => instruction.keyword === 'CMD').at(-1);
    const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['start'];
    expect(cmd).toBeDefined();
    // Exec form: node itself is PID 1 and receives SIGTERM (no shell in between), which starts the graceful shutdown.
    expect(JSON.parse(cmd?.args ?? '[]')).toEqual(start?.split(' '));
    const user = inFinal.filter((instruction) => instruction.keyword === 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0', '0:0']).not.toContain(user);
    const finalCopies = inFinal.filter((instruction) => instruction.keyword === 'COPY').map((instruction) => instruction.args);
    expect(finalCopies).toContain('--from=build /app/dist dist');
    expect(finalCopies.some((args) => /\b(src|resolvers|scripts)\b/.test(args))).toBe(false);
    expect(inFinal.some((instruction) => instruction.keyword === 'STOPSIGNAL' && instruction.args === 'SIGTERM')).toBe(true);
  });

  it('.dockerignore keeps local state and installed packages out of the context', () => {
    for (const pattern of ['node_modules', 'dist', 'data', '.git']) expect(ignored).toContain(pattern);
  });
});
