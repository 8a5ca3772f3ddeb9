/**
 * A Dockerfile read into its stages, for test/dockerfile.test.ts: the
 * instructions this repository's Dockerfile uses (FROM, WORKDIR, COPY,
 * RUN, ENV, USER, CMD and the ones that only describe the image), with
 * continuation lines joined and comments dropped. Anything it does not
 * understand is an error, not skipped, so that a new instruction cannot
 * pass the container check unseen.
 */

export interface Instruction {
  /** Upper case: `FROM`, `COPY`, ... */
  readonly keyword: string;
  /** The rest of the line, as written. */
  readonly args: string;
}

export interface CopyInstruction {
  /** The stage named by `--from`, or undefined for the build context. */
  readonly from: string | undefined;
  readonly sources: readonly string[];
  readonly destination: string;
}

export type Step =
  | { readonly kind: 'copy'; readonly copy: CopyInstruction }
  | { readonly kind: 'run'; readonly command: string };

export interface Stage {
  readonly index: number;
  /** `AS name`, or the index as a string. */
  readonly name: string;
  readonly base: string;
  /** The last WORKDIR (an absolute path); COPY and RUN are relative to the WORKDIR in force when they come. */
  readonly workdir: string;
  /** COPY and RUN in order, each with the WORKDIR in force. */
  readonly steps: ReadonlyArray<Step & { readonly workdir: string }>;
  readonly env: Readonly<Record<string, string>>;
  readonly user: string | undefined;
  /** Exec form only (node as PID 1 receives SIGTERM). */
  readonly cmd: readonly string[] | undefined;
  readonly instructions: readonly Instruction[];
}

/** Instructions in order: continuation lines joined, comments and blank lines dropped. */
export function instructionsOf(text: string): Instruction[] {
  return text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(' ') };
    });
}

/** `KEY=value` pairs (unquoted, or in double quotes without escapes). */
function parseEnv(args: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of args.matchAll(/(\w+)=("[^"]*"|\S*)/g)) {
    const [, key = '', raw = ''] = match;
    env[key] = raw.startsWith('"') ? raw.slice(1, -1) : raw;
  }
  if (Object.keys(env).length === 0) throw new Error(`ENV ${args}: only the KEY=value form is understood`);
  return env;
}

function parseCopy(args: string): CopyInstruction {
  const words = args.split(/\s+/);
  let from: string | undefined;
  const paths: string[] = [];
  for (const word of words) {
    if (word.startsWith('--from=')) from = word.slice('--from='.length);
    else if (word.startsWith('--chown=') || word.startsWith('--chmod='))
      continue; // Ownership: the check runs as one user.
    else if (word.startsWith('--')) throw new Error(`COPY ${args}: flag ${word} is not understood`);
    else paths.push(word);
  }
  if (paths.length < 2 || args.includes('[')) throw new Error(`COPY ${args}: expected sources and a destination`);
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
}

/** Keywords that describe the image but change nothing the check assembles or runs. */
const descriptive = new Set(['EXPOSE', 'VOLUME', 'HEALTHCHECK', 'STOPSIGNAL', 'LABEL', 'ARG']);

export function stagesOf(text: string): Stage[] {
  const stages: Stage[] = [];
  type Mutable = { -readonly [K in keyof Stage]: Stage[K] } & {
    steps: Array<Step & { workdir: string }>;
    instructions: Instruction[];
  };
  let current: Mutable | undefined;
  for (const instruction of instructionsOf(text)) {
    if (instruction.keyword === 'FROM') {
      const [base = '', as, name] = instruction.args.split(/\s+/);
      const index = stages.length;
      current = {
        index,
        name: as?.toUpperCase() === 'AS' && name !== undefined ? name : String(index),
        base,
        workdir: '/',
        steps: [],
        env: {},
        user: undefined,
        cmd: undefined,
        instructions: [],
      };
      stages.push(current);
    }
    if (current === undefined) throw new Error(`${instruction.keyword} before any FROM`);
    current.instructions.push(instruction);
    switch (instruction.keyword) {
      case 'FROM':
        break;
      case 'WORKDIR':
        current.workdir = instruction.args.startsWith('/')
          ? instruction.args
          : `${current.workdir.replace(/\/$/, '')}/${instruction.args}`;
        break;
      case 'COPY':
        current.steps.push({ kind: 'copy', copy: parseCopy(instruction.args), workdir: current.workdir });
        break;
      case 'RUN':
        if (instruction.args.startsWith('['))
          throw new Error(`RUN ${instruction.args}: only the shell form is understood`);
        current.steps.push({ kind: 'run', command: instruction.args, workdir: current.workdir });
        break;
      case 'ENV':
        current.env = { ...current.env, ...parseEnv(instruction.args) };
        break;
      case 'USER':
        current.user = instruction.args;
        break;
      case 'CMD':
        current.cmd = JSON.parse(instruction.args) as string[];
        break;
      default:
        if (!descriptive.has(instruction.keyword))
          throw new Error(`${instruction.keyword} ${instruction.args}: not understood by the container check`);
    }
  }
  return stages;
}
