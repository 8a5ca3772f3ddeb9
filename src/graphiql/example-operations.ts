/**
 * The example operations of `examples/operations/`: one `.graphql` file per
 * operation (a comment saying what it shows, then one named operation), and
 * beside it, when it takes variables, a `.variables.json` with values that
 * resolve on the sandbox. They are the documented examples, GraphiQL's first
 * tabs, and test/example-operations.test.ts runs each one.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Kind, parse, type OperationTypeNode } from 'graphql';
import { runtimeDir } from '../runtime-files.js';

export interface ExampleOperation {
  /** The `.graphql` file's name: `1-hockey-night.graphql`. */
  readonly file: string;
  /** The operation's name: `HockeyNight`. */
  readonly name: string;
  readonly type: OperationTypeNode;
  /** The file as written, comment included. */
  readonly document: string;
  /** The variables as written in the `.variables.json` file (null without one). */
  readonly variablesJson: string | null;
  readonly variables: Readonly<Record<string, unknown>>;
}

/** The comment an example opens with, as one line: what it shows (tool and resource descriptions). */
export const exampleSummary = (example: ExampleOperation): string =>
  example.document
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#\s?/, ''))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();

/** `2-world-cup.graphql` sorts before `10-...`: the number before the first dash orders the files. */
const order = (file: string): number => Number.parseInt(file, 10);

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function readExample(dir: string, file: string): Promise<ExampleOperation> {
  const document = await readFile(join(dir, file), 'utf8');
  const operations = parse(document).definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  const [operation] = operations;
  if (operations.length !== 1 || operation?.name === undefined)
    throw new Error(`${file}: an example holds exactly one named operation`);
  const variablesJson = await readOptional(join(dir, file.replace(/\.graphql$/, '.variables.json')));
  const variables = variablesJson === null ? {} : (JSON.parse(variablesJson) as Record<string, unknown>);
  return { file, name: operation.name.value, type: operation.operation, document, variablesJson, variables };
}

/**
 * Every example operation, in file order.
 * @param dir where the files are. @default runtimeDir('exampleOperations')
 */
export async function loadExampleOperations(
  dir: string = runtimeDir('exampleOperations'),
): Promise<ExampleOperation[]> {
  const files = (await readdir(dir))
    .filter((file) => file.endsWith('.graphql'))
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return Promise.all(files.map((file) => readExample(dir, file)));
}
