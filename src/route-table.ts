/**
 * Every HTTP route the gateway serves, in one table, each with what it can
 * spend. The gateway answers no path outside it (src/plugins/use-route-table.ts
 * runs first and answers 404 `NOT_FOUND`), so a route added later is
 * unreachable until it has a row here, and a row must say whether the
 * route can cause a counted upstream request and, if so, which door of the
 * spend gate (src/spend/spend-gate.ts) it passes. test/every-door.test.ts
 * holds an example request for every row and proves each row's claim
 * against the running gateway: a gated route refuses a client with no
 * budget left before any upstream request and charges one with budget
 * exactly what it spent; a route that spends nothing makes no upstream
 * request.
 *
 * A row is one dispatcher (a yoga plugin, or yoga's own endpoint), matched
 * on the raw request path as well as the normalised one, as the image
 * plugin matches it (so `../` in an image path still reaches its 400).
 */
export type Spending =
  /** Can cause counted upstream requests: every one passes the spend gate first, in `door`. */
  | { readonly kind: 'gated'; readonly door: string }
  /** Never causes an upstream request. */
  | { readonly kind: 'none' };

export interface GatewayRoute {
  /** Stable name, used by the test's examples. */
  readonly name: string;
  /** Matches the request path (no query string). */
  readonly path: RegExp;
  readonly spending: Spending;
}

export const gatewayRoutes: readonly GatewayRoute[] = [
  {
    name: 'graphql',
    // Queries and mutations over GET/POST, subscriptions over SSE; graphql-ws upgrades on the same path.
    path: /^\/graphql$/,
    spending: {
      kind: 'gated',
      door: 'src/plugins/use-cost-limit.ts (operations), src/spend/poll-payers.ts (subscriptions that start shared polls)',
    },
  },
  {
    name: 'subgraph',
    // The Federation v2 subgraph (src/federation): a router's queries and `_entities` over POST, subscriptions over SSE.
    path: /^\/subgraph$/,
    spending: {
      kind: 'gated',
      door: 'src/plugins/use-cost-limit.ts with the subgraph cost table (src/federation/entity-cost.ts)',
    },
  },
  {
    name: 'images',
    // `/images/v1|v2|v6/...` and `/images/logo?...` (src/model/image-paths.ts); anything else under it is a coded 400.
    path: /^\/images(?:\/|$)/,
    spending: { kind: 'gated', door: 'src/plugins/use-images.ts' },
  },
  {
    name: 'mcp',
    // The MCP endpoint (src/transport/mcp/): its tools run their GraphQL through /graphql's yoga; `MCP=false` answers 404.
    path: /^\/mcp$/,
    spending: {
      kind: 'gated',
      door: 'src/plugins/use-cost-limit.ts: the MCP tools run operations through /graphql (src/transport/mcp/graphql-runner.ts)',
    },
  },
  { name: 'healthz', path: /^\/healthz$/, spending: { kind: 'none' } },
  { name: 'readyz', path: /^\/readyz$/, spending: { kind: 'none' } },
  { name: 'metrics', path: /^\/metrics$/, spending: { kind: 'none' } },
  // Static pages and their assets (src/widgets/use-widgets.ts).
  { name: 'widgets', path: /^\/widgets\//, spending: { kind: 'none' } },
  // The schema's interfaces and their types, for normalized client caches (src/plugins/use-possible-types.ts).
  { name: 'possible-types', path: /^\/possible-types\.json$/, spending: { kind: 'none' } },
  // GraphiQL's content-hashed files (src/graphiql/use-graphiql-assets.ts); the page itself is yoga's, on /graphql.
  { name: 'graphiql', path: /^\/graphiql\//, spending: { kind: 'none' } },
];

/** The row serving `path`, if any. */
export function routeOf(path: string): GatewayRoute | undefined {
  return gatewayRoutes.find((route) => route.path.test(path));
}
