/**
 * Relay connections over the upstream's numbered pages (page index from 0).
 * A cursor names a page and a position in it, so `first`/`after` fetch only
 * the pages that hold the requested items: `first: 5` costs one page request,
 * never the whole list.
 */
import { ErrorCode, GatewayError } from '../upstream/errors.js';

export interface UpstreamPage<T> {
  items: readonly T[];
  hasNextPage: boolean;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Array<Edge<T>>;
  nodes: T[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

interface Position {
  page: number;
  index: number;
}

const encodeCursor = (p: Position): string => Buffer.from(`page:${p.page}:${p.index}`, 'utf8').toString('base64url');

function decodeCursor(cursor: string): Position {
  const match = /^page:(\d{1,6}):(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (match === null) throw new GatewayError(ErrorCode.BadUserInput, 'Not a cursor of this connection.');
  return { page: Number(match[1]), index: Number(match[2]) };
}

/** Most items one connection field returns, whatever `first` asks. */
export const MAX_FIRST = 100;
/** Items returned when `first` is not given. */
export const DEFAULT_FIRST = 10;

export async function pagedConnection<T>(
  loadPage: (page: number) => Promise<UpstreamPage<T>>,
  args: { first?: number | null | undefined; after?: string | null | undefined },
): Promise<Connection<T>> {
  const first = args.first ?? DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw new GatewayError(ErrorCode.BadUserInput, `first must be between 0 and ${MAX_FIRST}.`);
  }
  const start = args.after == null ? { page: 0, index: -1 } : decodeCursor(args.after);
  const edges: Array<Edge<T>> = [];
  let page = start.page;
  let skipThrough = start.index;
  let hasNextPage = true;
  while (edges.length < first) {
    const current = await loadPage(page);
    current.items.forEach((node, index) => {
      if (index > skipThrough && edges.length < first) edges.push({ cursor: encodeCursor({ page, index }), node });
    });
    const lastTaken = edges.at(-1);
    const moreHere =
      lastTaken !== undefined && decodeCursor(lastTaken.cursor).page === page
        ? decodeCursor(lastTaken.cursor).index < current.items.length - 1
        : skipThrough < current.items.length - 1;
    hasNextPage = moreHere || current.hasNextPage;
    if (!current.hasNextPage || edges.length >= first) break;
    page += 1;
    skipThrough = -1;
  }
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage,
      hasPreviousPage: args.after != null,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
