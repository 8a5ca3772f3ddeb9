/**
 * How deep and how large a request's `variables` and `extensions` may be,
 * checked before any code walks them (the result-cache key, graphql-js's
 * coercion, a WebSocket echo): `JSON.stringify` and every recursive walk
 * overflow the stack somewhere past a few thousand levels, and a 100 KiB
 * body holds 50,000 of them. One check for every door: yoga's `onParams`
 * (HTTP GET and POST, SSE; src/plugins/use-input-bounds.ts), the result-cache
 * fast path, and graphql-ws `subscribe` (src/transport/ws/graphql-ws-server.ts).
 *
 * The walk itself is iterative and stops at the first value past a bound.
 */
import { Code } from '../../codes/error-codes.js';

export interface InputBounds {
  /** Nesting levels of objects and arrays; `{}` is 1 deep, `{"a": []}` 2. */
  readonly maxDepth: number;
  /** Values of every kind (objects, arrays, keys' values, array items) counted together. */
  readonly maxValues: number;
}

export type InputRefusalCode =
  | typeof Code.VARIABLES_TOO_DEEP
  | typeof Code.VARIABLES_TOO_LARGE
  | typeof Code.EXTENSIONS_TOO_DEEP
  | typeof Code.EXTENSIONS_TOO_LARGE;

export interface InputRefusal {
  readonly code: InputRefusalCode;
  readonly message: string;
}

type Verdict = 'deep' | 'large' | undefined;

const isContainer = (value: unknown): value is object => typeof value === 'object' && value !== null;

/** Iterative depth and size check of one JSON value. */
export function measure(value: unknown, bounds: InputBounds): Verdict {
  if (!isContainer(value)) return undefined;
  if (bounds.maxDepth < 1) return 'deep';
  const pending: Array<{ container: object; depth: number }> = [{ container: value, depth: 1 }];
  let values = 1;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const children: unknown[] = Array.isArray(next.container) ? next.container : Object.values(next.container);
    // Counted before any is pushed: a flat object of a million keys is refused without a million pushes.
    values += children.length;
    if (values > bounds.maxValues) return 'large';
    for (const child of children) {
      if (!isContainer(child)) continue;
      if (next.depth + 1 > bounds.maxDepth) return 'deep';
      pending.push({ container: child, depth: next.depth + 1 });
    }
  }
  return undefined;
}

const refusals: Record<'variables' | 'extensions', Record<'deep' | 'large', InputRefusal>> = {
  variables: {
    deep: { code: Code.VARIABLES_TOO_DEEP, message: 'The request was refused: its variables are nested too deeply.' },
    large: { code: Code.VARIABLES_TOO_LARGE, message: 'The request was refused: its variables hold too many values.' },
  },
  extensions: {
    deep: { code: Code.EXTENSIONS_TOO_DEEP, message: 'The request was refused: its extensions are nested too deeply.' },
    large: {
      code: Code.EXTENSIONS_TOO_LARGE,
      message: 'The request was refused: its extensions hold too many values.',
    },
  },
};

/** The refusal for a request's parameters, or undefined when both are within bounds. */
export function inputRefusal(
  params: { readonly variables?: unknown; readonly extensions?: unknown },
  bounds: InputBounds,
): InputRefusal | undefined {
  for (const part of ['variables', 'extensions'] as const) {
    const verdict = measure(params[part], bounds);
    if (verdict !== undefined) return refusals[part][verdict];
  }
  return undefined;
}
