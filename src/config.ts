/**
 * Environment -> typed, validated configuration. Read once at start; a bad
 * value stops the gateway with a message naming the variable.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { isAllowedHostEntry } from './access/allowed-hosts.js';
import { budgetProblem, parseClientKeys, type ClientKey } from './access/client-keys.js';
import { envReader, type Env } from './env-reader.js';
import { defaultPlan, type Plan } from './upstream/assumptions.js';
import {
  defaultCacheTtls,
  defaultMatchStateTtls,
  sandboxCacheTtls,
  type CacheClass,
  type MatchFreshnessSetting,
} from './upstream/cache-ttls.js';
import { readPersistedOperationsConfig, type PersistedOperationsConfig } from './config/persisted.js';
import { readTracingConfig, type TracingConfig } from './config/tracing.js';
import { FIELD_GROUPS, type FieldGroup } from './config/federation.js';

export interface UpstreamTimeouts {
  /** TCP + TLS connect. */
  connectMs: number;
  /** From request sent to response headers. */
  headersMs: number;
  /** Longest silence between two body chunks. */
  bodyMs: number;
  /** Whole operation, retries and waits included. */
  operationMs: number;
  /**
   * A query or mutation whose execution has not settled this long after it
   * started is answered OPERATION_TIMEOUT (src/plugins/use-operation-timeout.ts):
   * the safety net behind `operationMs`, which bounds only what waits on the
   * upstream. `operationMs` + 1 s, so that every upstream request has been
   * cut, and counted, before it acts.
   */
  settleMs: number;
}

/** Live odds feeds and the live ticker (src/live). */
export interface LiveConfig {
  /** `ODDS_WATCHDOG_MS`: reconnect when the last odds frame is older than this (spec 6.6). @default 90_000 */
  oddsWatchdogMs: number;
  /** `ODDS_LINGER_MS`: an upstream odds subscription stays open this long after its last subscriber leaves. @default 5_000 */
  oddsLingerMs: number;
  /** `ODDS_BACKOFF_INITIAL_MS`: the first reconnect waits between half of this and this. @default 500 */
  oddsBackoffInitialMs: number;
  /** `ODDS_BACKOFF_MAX_MS`: ceiling of the doubling reconnect wait. @default 30_000 */
  oddsBackoffMaxMs: number;
  /** `LIVE_TICKER_ALLOWANCE_PERCENT`: the most of the daily allowance the live ticker's poll may spend. @default 10 */
  tickerAllowancePercent: number;
  /** `LIVE_TICKER_MIN_INTERVAL_MS`: the ticker never polls more often than this, whatever the plan. @default 15_000 */
  tickerMinIntervalMs: number;
  /** `ODDS_MAX_FEEDS`: upstream odds feeds (one upstream subscription each) open at once, lingering ones included. @default 100 */
  oddsMaxFeeds: number;
  /**
   * `ODDS_MAX_FEEDS_PER_CLIENT`: upstream odds feeds one client (its key's
   * name, or its address when keys are off) may have opened and still open;
   * joining a feed already open is not counted. @default 10
   */
  oddsMaxFeedsPerClient: number;
}

/** Limits on what one client can ask; errors never reveal them. */
export interface OperationLimits {
  /** Selection depth. @default 12 */
  maxDepth: number;
  /** Aliases in one operation. @default 30 */
  maxAliases: number;
  /** Directives in one operation. @default 20 */
  maxDirectives: number;
  /** Lexical tokens in one document. @default 2000 */
  maxTokens: number;
  /**
   * `LIMIT_MAX_INTROSPECTION_DEPTH`: selection depth of an operation that
   * introspects the schema, where the ordinary depth limit would refuse the
   * `ofType` chain of the standard introspection query (15 deep, what
   * GraphiQL and graphql-js's `getIntrospectionQuery` need). @default 15
   */
  maxIntrospectionDepth: number;
  /** `LIMIT_MAX_VARIABLES_DEPTH`: nesting of `variables`, and of `extensions`, in one request (src/transport/http/input-bounds.ts). @default 16 */
  maxVariablesDepth: number;
  /** `LIMIT_MAX_VARIABLES_VALUES`: values held by `variables`, and by `extensions`, in one request. @default 10_000 */
  maxVariablesValues: number;
  /** HTTP request body. @default 100 KiB */
  maxBodyBytes: number;
  /** Active subscriptions on one WebSocket. @default 25 */
  maxSubscriptionsPerSocket: number;
  /** One WebSocket message. @default 64 KiB */
  maxWsMessageBytes: number;
  /** Bytes queued to a slow WebSocket consumer before it is dropped. @default 4 MiB */
  maxWsBufferedBytes: number;
  /** `GATEWAY_MAX_OPERATION_COST`: counted upstream requests one operation may be estimated at (src/spend/estimate/). @default 50 */
  maxOperationCost: number;
}

/** The MCP endpoint on `/mcp` (src/transport/mcp/). */
export interface McpConfig {
  /** `MCP`: `false` turns `/mcp` off (404 like any unknown path). @default true */
  enabled: boolean;
  /** `MCP_MAX_CALL_COST`: counted upstream requests one `execute` call may be estimated at; more is refused before it runs. @default 10 */
  maxCallCost: number;
}

/** Who may use the gateway, and what it shows them. */
export interface AccessConfig {
  /** `GATEWAY_CLIENT_KEYS` / `GATEWAY_CLIENT_KEYS_FILE`; empty = no key needed. */
  clientKeys: readonly ClientKey[];
  /** `GATEWAY_INTROSPECTION`. @default true */
  introspection: boolean;
  /** `GATEWAY_GRAPHIQL`. @default true */
  graphiql: boolean;
  /** `GATEWAY_CORS_ORIGINS`, comma separated; empty = no cross-origin access. */
  corsOrigins: readonly string[];
  /**
   * `GATEWAY_ALLOWED_HOSTS`, comma separated: the `Host` names the gateway
   * answers for (src/access/allowed-hosts.ts); `*` = any.
   * @default empty: the names of `HOST` (every interface address and the
   * machine's name for `0.0.0.0`/`::`, plus `localhost`, `127.0.0.1`, `::1` on loopback)
   */
  allowedHosts: readonly string[];
}

/** Cluster mode (src/state/open-state.ts): replicas share their state through Redis. */
export interface ClusterConfig {
  /** `REDIS_URL` (`redis://` or `rediss://`): set, the gateway joins the cluster on it; unset, it runs alone on memory and `DATA_DIR`. */
  redisUrl: string | undefined;
  /** `REDIS_KEY_PREFIX`: every key and channel starts with it, so clusters can share one Redis. @default 'sports-graph:' */
  keyPrefix: string;
  /** `REPLICA_ID`: this replica's name in metrics, `/healthz` and leases. @default host name, process ID and a random suffix */
  replicaId: string;
}

/** The Federation v2 subgraph on `/subgraph` (src/federation). */
export interface FederationConfig {
  /** `FEDERATION_SUBGRAPH`: serve `/subgraph`. @default true */
  subgraph: boolean;
  /**
   * `FEDERATION_HIDDEN`, comma separated: field groups marked `@inaccessible`
   * in the subgraph SDL, so that a router keeps them out of the supergraph's
   * API (`operational`, `raw`; `none` for none). Every group carries
   * `@tag(name: <group>)` either way, for contracts.
   * @default ['operational']
   */
  hidden: readonly FieldGroup[];
}

export interface Config {
  /** `SPORTS_API_KEY`: sent as `x-api-key` on the routes that need it, and nowhere else. */
  apiKey: string | undefined;
  /**
   * `SPORTS_API_PLAN`: the daily allowance.
   * @default 'free' against a real upstream; the largest plan on the embedded sandbox (src/upstream/assumptions.ts)
   */
  plan: Plan;
  /** Whether `plan` was set (`SPORTS_API_PLAN`) or is the default: the first log line says which. */
  planFrom: 'SPORTS_API_PLAN' | 'default';
  /** `SPORTS_API_BASE_URL`: unset starts the embedded sandbox. */
  baseUrl: string | undefined;
  /** `SPORTS_API_WS_URL`: odds WebSocket base. @default derived from the base URL */
  wsUrl: string | undefined;
  /** `SPORTS_API_V3_CYCLING_BASE_URL`. @default the base URL */
  v3CyclingBaseUrl: string | undefined;
  /** `DATA_DIR`: allowance ledger, image store, the upstream cache file. @default './data' */
  dataDir: string;
  /**
   * `COUNTERPART_LINKS_FILE`: the operator's file of confirmed and rejected
   * cross-version links (src/identity/operator-links.ts); they win over what
   * the gateway learned. @default unset: none
   */
  counterpartLinksFile: string | undefined;
  /** `PORT`. @default 4000 */
  port: number;
  /** `HOST`. @default '127.0.0.1' */
  host: string;
  /** `LOG_LEVEL`. @default 'info' */
  logLevel: string;
  /** The embedded sandbox (no `SPORTS_API_BASE_URL`); nothing here applies to a real upstream. */
  sandbox: {
    /**
     * `SANDBOX_MATCH_EVENT_MS`: average milliseconds between the match events
     * each match with odds subscribers has on its own; 0 = only those asked
     * for on the control route (sandbox/ws/odds-socket.ts).
     * @default 3_000
     */
    matchEventMs: number;
    /**
     * `SANDBOX_MATCH_MINUTE_MS`: real milliseconds per minute of play of the
     * live World Cup games (sandbox/live/simulation.ts); 0 stands them
     * still. At the default a game lasts about 16 minutes, and a
     * `liveTicker` poll (every 15 s on the sandbox) always sees its clock move.
     * @default 10_000
     */
    matchMinuteMs: number;
  };
  timeouts: UpstreamTimeouts;
  /** Keep-alive connections per upstream origin. @default 16 */
  upstreamConnections: number;
  /** Largest upstream body read, in bytes. @default 10 MiB */
  maxUpstreamBodyBytes: number;
  /** Seconds each cache class stays fresh. */
  cacheTtls: Record<CacheClass, number>;
  /**
   * Classes whose TTL `CACHE_TTL_<CLASS>` sets explicitly: their answers keep
   * that TTL whatever state their match is in (the freshness policy is off
   * for them).
   */
  cacheTtlsPinned: ReadonlySet<CacheClass>;
  /** Seconds an answer bound to a match stays fresh, by the match's state (cache-ttls.ts). */
  matchFreshness: Record<MatchFreshnessSetting, number>;
  /** Bytes of upstream JSON kept in memory, fresh and stale together. @default 64 MiB */
  cacheMaxBytes: number;
  /**
   * `CACHE_STORE`: where upstream answers are kept. `disk`: in memory and in
   * `DATA_DIR/upstream-cache.mdb`, so a restart does not pay for them again
   * (src/upstream/disk-entries.ts); `memory`: in memory only.
   * @default 'disk'
   */
  cacheStore: 'memory' | 'disk';
  /** `CACHE_DISK_MAX_MB`: bytes of encoded answers kept in the file, least recently used out first. @default 256 MiB */
  cacheDiskMaxBytes: number;
  /** How long past its TTL an entry may still answer when the upstream cannot. @default 7 days */
  maxStaleSeconds: number;
  /**
   * `CACHE_STALE_IF_SLOW_MS`: a caller that holds a stale value waits this
   * long for the refresh, then answers stale while the refresh goes on in
   * the background. Far above a healthy upstream answer (tens to hundreds of
   * ms), so a working upstream is never passed over, and far inside the
   * operation deadline; must be below `OPERATION_TIMEOUT_MS`.
   * @default 1_500, or half of `OPERATION_TIMEOUT_MS` when that is shorter than 3 s
   */
  cacheStaleIfSlowMs: number;
  /** Operation, body and WebSocket limits (`LIMIT_*`). */
  limits: OperationLimits;
  access: AccessConfig;
  /** Live odds and the live ticker (src/live). */
  live: LiveConfig;
  /** `GRAPHQL_JIT`: queries and mutations run compiled by graphql-jit (through envelop). @default true */
  graphqlJit: boolean;
  mcp: McpConfig;
  /**
   * Whole query results kept while every upstream resource they used is
   * fresh (src/results/result-cache.ts).
   */
  resultCache: {
    /** `RESULT_CACHE`. @default true */
    enabled: boolean;
    /** `RESULT_CACHE_MAX_BYTES`: bytes of serialized results held. @default 16 MiB */
    maxBytes: number;
  };
  cluster: ClusterConfig;
  /** Automatic persisted queries, or trusted documents only (src/config/persisted.ts). */
  persisted: PersistedOperationsConfig;
  /** OpenTelemetry traces, on when an OTLP endpoint is set (src/config/tracing.ts). */
  tracing: TracingConfig;
  /** How the process serves and stops (docs/operations.md). */
  service: ServiceConfig;
  connections: ConnectionConfig;
  federation: FederationConfig;
  /** Baseball lineup confirmation polling (spec 4.9: every 5 minutes from about 3 hours before the first pitch). */
  lineupPoll: {
    /** `LINEUP_POLL_INTERVAL_MS`. @default 300_000 (5 minutes) */
    intervalMs: number;
    /** `LINEUP_POLL_LEAD_MS`: polling starts this long before the first pitch. @default 10_800_000 (3 hours) */
    leadMs: number;
  };
}

/** How many connections the gateway holds, and for how long (src/transport/http/connection-bounds.ts, src/transport/ws/idle-sockets.ts). */
export interface ConnectionConfig {
  /**
   * `HTTP_HEADERS_TIMEOUT_MS`: a request's headers must have arrived this
   * long after its first byte (or the connection's start); else 408
   * `REQUEST_TIMEOUT` and the connection is closed. At most `HTTP_REQUEST_TIMEOUT_MS`.
   * @default 10_000
   */
  headersTimeoutMs: number;
  /**
   * `HTTP_REQUEST_TIMEOUT_MS`: the whole request, body included, must have
   * arrived within this; a body that trickles is cut with 408 `REQUEST_TIMEOUT`
   * (Node's own default is 300 s). The answer's time does not count.
   * @default 15_000
   */
  requestTimeoutMs: number;
  /**
   * `GATEWAY_MAX_CONNECTIONS`: open TCP connections (HTTP and WebSocket)
   * served at once. Past it a new connection is answered 503
   * `TOO_MANY_CONNECTIONS` and closed; past it by a further tenth (at least
   * 16) it is closed unanswered. Keep it below the process's file limit (`ulimit -n`).
   * @default 16_384
   */
  maxConnections: number;
  /**
   * `WS_IDLE_TIMEOUT_MS`: a graphql-ws socket with no operation running for
   * this long is closed with 1000 and the reason `Idle timeout`; 0 = never.
   * @default 60_000
   */
  wsIdleTimeoutMs: number;
  /**
   * `WS_KEEP_ALIVE_MS`: every WebSocket is pinged this often; one that has
   * not answered the previous ping by the next is cut (a dead peer goes
   * within two intervals).
   * @default 12_000
   */
  wsKeepAliveMs: number;
}

export interface ServiceConfig {
  /** `COMPRESSION`: brotli or gzip by `Accept-Encoding` (src/transport/http/compress.ts). @default true */
  compression: boolean;
  /** `COMPRESSION_THRESHOLD_BYTES`: smaller answers are sent as they are. @default 1_024 */
  compressionThresholdBytes: number;
  /**
   * `SHUTDOWN_TIMEOUT_MS`: after SIGTERM, how long operations in flight may
   * take to finish before their connections are cut.
   * @default OPERATION_TIMEOUT_MS + 1_000 (an operation never runs longer than its deadline)
   */
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n- ${problems.join('\n- ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Env = process.env): Config {
  const reader = envReader(env);
  const { problems, int, url, bool, list, choice } = reader;

  const keysOrProblem = (): ClientKey[] => {
    try {
      return parseClientKeys(env);
    } catch (error) {
      problems.push((error as Error).message);
      return [];
    }
  };

  const fieldGroups = (name: string, fallback: readonly FieldGroup[]): FieldGroup[] => {
    if (env[name] === undefined || env[name] === '') return [...fallback];
    const asked = list(name);
    if (asked.length === 1 && asked[0] === 'none') return [];
    const unknown = asked.filter((group) => !(FIELD_GROUPS as readonly string[]).includes(group));
    if (unknown.length > 0) {
      problems.push(
        `${name} takes ${FIELD_GROUPS.join(', ')} (comma separated) or none, got "${unknown.join('", "')}"`,
      );
      return [...fallback];
    }
    return [...new Set(asked as FieldGroup[])];
  };

  const plan = reader.plan(defaultPlan((env['SPORTS_API_BASE_URL'] ?? '') === '' ? 'sandbox' : 'real'));

  // The embedded sandbox's defaults differ where its games in progress must be seen to move (cache-ttls.ts).
  const onSandbox = (env['SPORTS_API_BASE_URL'] ?? '') === '';
  const cacheTtls: Record<CacheClass, number> = { ...defaultCacheTtls, ...(onSandbox ? sandboxCacheTtls : {}) };
  const cacheTtlsPinned = new Set<CacheClass>();
  for (const cacheClass of Object.keys(cacheTtls) as CacheClass[]) {
    const name = `CACHE_TTL_${cacheClass.toUpperCase()}`;
    if ((env[name] ?? '') !== '') cacheTtlsPinned.add(cacheClass);
    cacheTtls[cacheClass] = int(name, cacheTtls[cacheClass]);
  }
  const matchFreshness: Record<MatchFreshnessSetting, number> = { ...defaultMatchStateTtls };
  for (const setting of Object.keys(matchFreshness) as MatchFreshnessSetting[]) {
    // `ended` is immutable (Infinity) unless a number of seconds is given.
    const name = `CACHE_TTL_MATCH_${setting.toUpperCase()}`;
    if ((env[name] ?? '') !== '') matchFreshness[setting] = int(name, 0);
  }

  const operationMs = int('OPERATION_TIMEOUT_MS', 10_000, 1);
  const config: Config = {
    apiKey: env['SPORTS_API_KEY'] === '' ? undefined : env['SPORTS_API_KEY'],
    plan,
    planFrom: (env['SPORTS_API_PLAN'] ?? '') !== '' ? 'SPORTS_API_PLAN' : 'default',
    baseUrl: url('SPORTS_API_BASE_URL', ['http:', 'https:']),
    wsUrl: url('SPORTS_API_WS_URL', ['ws:', 'wss:']),
    v3CyclingBaseUrl: url('SPORTS_API_V3_CYCLING_BASE_URL', ['http:', 'https:']),
    dataDir: env['DATA_DIR'] || './data',
    counterpartLinksFile: env['COUNTERPART_LINKS_FILE'] || undefined,
    port: int('PORT', 4000, 0, 65_535),
    host: env['HOST'] || '127.0.0.1',
    logLevel: env['LOG_LEVEL'] || 'info',
    sandbox: {
      matchEventMs: int('SANDBOX_MATCH_EVENT_MS', 3_000),
      matchMinuteMs: int('SANDBOX_MATCH_MINUTE_MS', 10_000),
    },
    timeouts: {
      connectMs: int('UPSTREAM_CONNECT_TIMEOUT_MS', 3_000, 1),
      headersMs: int('UPSTREAM_HEADERS_TIMEOUT_MS', 5_000, 1),
      bodyMs: int('UPSTREAM_BODY_TIMEOUT_MS', 5_000, 1),
      operationMs,
      settleMs: operationMs + 1_000,
    },
    upstreamConnections: int('UPSTREAM_CONNECTIONS', 16, 1),
    maxUpstreamBodyBytes: int('UPSTREAM_MAX_BODY_BYTES', 10 * 1024 * 1024, 1024),
    cacheTtls,
    cacheTtlsPinned,
    matchFreshness,
    cacheMaxBytes: int('CACHE_MAX_BYTES', 64 * 1024 * 1024, 1024),
    cacheStore: choice('CACHE_STORE', ['memory', 'disk'] as const, 'disk'),
    cacheDiskMaxBytes: int('CACHE_DISK_MAX_MB', 256, 1, 1024 * 1024) * 1024 * 1024,
    maxStaleSeconds: int('CACHE_MAX_STALE_SECONDS', 7 * 24 * 3600),
    // The default follows a short deadline down, so that setting OPERATION_TIMEOUT_MS alone never stops start-up.
    cacheStaleIfSlowMs: int('CACHE_STALE_IF_SLOW_MS', Math.min(1_500, Math.floor(operationMs / 2)), 1),
    live: {
      oddsWatchdogMs: int('ODDS_WATCHDOG_MS', 90_000, 1),
      oddsLingerMs: int('ODDS_LINGER_MS', 5_000),
      oddsBackoffInitialMs: int('ODDS_BACKOFF_INITIAL_MS', 500, 1),
      oddsBackoffMaxMs: int('ODDS_BACKOFF_MAX_MS', 30_000, 1),
      tickerAllowancePercent: int('LIVE_TICKER_ALLOWANCE_PERCENT', 10, 1),
      tickerMinIntervalMs: int('LIVE_TICKER_MIN_INTERVAL_MS', 15_000, 1),
      oddsMaxFeeds: int('ODDS_MAX_FEEDS', 100, 1),
      oddsMaxFeedsPerClient: int('ODDS_MAX_FEEDS_PER_CLIENT', 10, 1),
    },
    access: {
      clientKeys: keysOrProblem(),
      introspection: bool('GATEWAY_INTROSPECTION', true),
      graphiql: bool('GATEWAY_GRAPHIQL', true),
      corsOrigins: list('GATEWAY_CORS_ORIGINS'),
      allowedHosts: list('GATEWAY_ALLOWED_HOSTS'),
    },
    limits: {
      maxDepth: int('LIMIT_MAX_DEPTH', 12, 1),
      maxAliases: int('LIMIT_MAX_ALIASES', 30, 0),
      maxDirectives: int('LIMIT_MAX_DIRECTIVES', 20, 0),
      maxTokens: int('LIMIT_MAX_TOKENS', 2_000, 10),
      maxIntrospectionDepth: int('LIMIT_MAX_INTROSPECTION_DEPTH', 15, 1),
      maxVariablesDepth: int('LIMIT_MAX_VARIABLES_DEPTH', 16, 1),
      maxVariablesValues: int('LIMIT_MAX_VARIABLES_VALUES', 10_000, 1),
      maxBodyBytes: int('LIMIT_MAX_BODY_BYTES', 100 * 1024, 1024),
      maxSubscriptionsPerSocket: int('LIMIT_MAX_SUBSCRIPTIONS_PER_SOCKET', 25, 1),
      maxWsMessageBytes: int('LIMIT_MAX_WS_MESSAGE_BYTES', 64 * 1024, 1024),
      maxWsBufferedBytes: int('LIMIT_MAX_WS_BUFFERED_BYTES', 4 * 1024 * 1024, 1024),
      maxOperationCost: int('GATEWAY_MAX_OPERATION_COST', 50, 0),
    },
    graphqlJit: bool('GRAPHQL_JIT', true),
    mcp: {
      enabled: bool('MCP', true),
      maxCallCost: int('MCP_MAX_CALL_COST', 10, 0),
    },
    resultCache: {
      enabled: bool('RESULT_CACHE', true),
      maxBytes: int('RESULT_CACHE_MAX_BYTES', 16 * 1024 * 1024, 1024),
    },
    cluster: {
      redisUrl: url(
        'REDIS_URL',
        ['redis:', 'rediss:'],
        'write it as redis://host:6379 (rediss:// for TLS, redis://:password@host:6379 with a password), or unset it to run a single gateway without Redis',
      ),
      keyPrefix: env['REDIS_KEY_PREFIX'] ?? 'sports-graph:',
      replicaId: env['REPLICA_ID'] || defaultReplicaId(),
    },
    persisted: readPersistedOperationsConfig(reader, env),
    tracing: readTracingConfig(reader, env),
    service: {
      compression: bool('COMPRESSION', true),
      compressionThresholdBytes: int('COMPRESSION_THRESHOLD_BYTES', 1_024),
      shutdownTimeoutMs: int('SHUTDOWN_TIMEOUT_MS', operationMs + 1_000, 1),
    },
    connections: {
      headersTimeoutMs: int('HTTP_HEADERS_TIMEOUT_MS', 10_000, 100),
      requestTimeoutMs: int('HTTP_REQUEST_TIMEOUT_MS', 15_000, 100),
      maxConnections: int('GATEWAY_MAX_CONNECTIONS', 16_384, 1),
      wsIdleTimeoutMs: int('WS_IDLE_TIMEOUT_MS', 60_000, 0),
      wsKeepAliveMs: int('WS_KEEP_ALIVE_MS', 12_000, 100),
    },
    federation: {
      subgraph: bool('FEDERATION_SUBGRAPH', true),
      hidden: fieldGroups('FEDERATION_HIDDEN', ['operational']),
    },
    lineupPoll: {
      intervalMs: int('LINEUP_POLL_INTERVAL_MS', 300_000, 10),
      leadMs: int('LINEUP_POLL_LEAD_MS', 3 * 3600 * 1000),
    },
  };
  if (config.cacheStaleIfSlowMs >= config.timeouts.operationMs) {
    // At or past the deadline the bound would never act: the field would fail before stale could answer.
    problems.push(
      `CACHE_STALE_IF_SLOW_MS (${config.cacheStaleIfSlowMs}) must be below OPERATION_TIMEOUT_MS (${config.timeouts.operationMs})`,
    );
  }
  if (config.connections.headersTimeoutMs > config.connections.requestTimeoutMs) {
    // Node refuses to start a server so configured: the request's bound includes its headers.
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${config.connections.headersTimeoutMs}) must not be above HTTP_REQUEST_TIMEOUT_MS (${config.connections.requestTimeoutMs})`,
    );
  }
  if (config.baseUrl !== undefined && config.apiKey === undefined) {
    problems.push('SPORTS_API_KEY is required when SPORTS_API_BASE_URL points at a real upstream');
  }
  const badHosts = config.access.allowedHosts.filter((entry) => !isAllowedHostEntry(entry));
  if (badHosts.length > 0) {
    problems.push(
      `GATEWAY_ALLOWED_HOSTS takes host names or IP addresses without scheme or port, or *, got "${badHosts.join('", "')}"`,
    );
  }
  if (!/^[\w.:-]{1,64}$/.test(config.cluster.replicaId))
    problems.push(
      `REPLICA_ID must be 1 to 64 letters, digits, '.', ':', '_' or '-', got "${config.cluster.replicaId}"`,
    );
  if (config.cluster.keyPrefix.length > 64) problems.push('REDIS_KEY_PREFIX must be at most 64 characters');
  const overCarved = budgetProblem(config.access.clientKeys, config.plan);
  if (overCarved !== undefined) problems.push(overCarved);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Unique among replicas started together on one machine, and readable in a metric label. */
function defaultReplicaId(): string {
  const host =
    hostname()
      .replace(/[^\w.-]/g, '')
      .slice(0, 40) || 'replica';
  return `${host}-${process.pid}-${randomBytes(2).toString('hex')}`;
}
