/**
 * The gateway's own Prometheus metrics, on a registry per gateway instance
 * (tests run several gateways in one process). Operation metrics are
 * observed by @graphql-yoga/plugin-prometheus on metric objects made here
 * (src/operation-metrics.ts). What an operation observes while it runs is
 * applied once its answer is written (src/metrics-after-answer.ts).
 *
 * Labels are route *templates*, never URLs: no ID, query or key can reach a
 * label, which keeps cardinality bounded and secrets out.
 */
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { AfterAnswer, AfterAnswerCounter, AfterAnswerHistogram } from './metrics-after-answer.js';
import { troubleStates, type TroubleState } from './codes/trouble-codes.js';

/** prom-client's default buckets, which the operation histograms had from @envelop/prometheus. */
const defaultSecondsBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class GatewayMetrics {
  readonly registry = new Registry();

  /** Observations made while an operation runs wait here until its answer is written (src/metrics-after-answer.ts). */
  readonly afterAnswer = new AfterAnswer();

  readonly upstreamRequests = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_upstream_requests_total',
    help: 'Requests sent to the upstream, by version, route template and HTTP status ("error" when no status came back).',
    labelNames: ['version', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly upstreamDuration = new AfterAnswerHistogram(this.afterAnswer, {
    name: 'sports_graph_upstream_request_duration_seconds',
    help: 'Upstream request duration, headers and body.',
    labelNames: ['version', 'route'] as const,
    buckets: defaultSecondsBuckets,
    registers: [this.registry],
  });

  readonly cacheHits = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_cache_hits_total',
    help: 'Upstream resources answered from the shared cache or an in-flight request.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly resultCacheFastHits = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_result_cache_fast_hits_total',
    help: "Operation-result cache hits answered before yoga by the HTTP fast path (src/transport/http/result-cache-hits.ts); yoga's own request metrics do not see them.",
    registers: [this.registry],
  });

  readonly estimateReuses = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_estimate_reuses_total',
    help: 'Operations whose cost estimate was reused: same document and variables, nothing cached changed since, at most 500 ms old (src/spend/estimate/estimate-memo.ts).',
    registers: [this.registry],
  });

  readonly resultCacheSharedHits = new Counter({
    name: 'sports_graph_result_cache_shared_hits_total',
    help: "Operation results this replica did not hold and found in the cluster's Redis (stored by a replica, this one included); 0 alone.",
    registers: [this.registry],
  });

  readonly redisRoundTrips = new Counter({
    name: 'sports_graph_redis_round_trips_total',
    help: "Round trips to the cluster's Redis on the command connection (a pipeline is one), by sender: the Lua script's name, else the command (src/state/redis/round-trips.ts); none alone.",
    labelNames: ['sender'] as const,
    registers: [this.registry],
  });

  readonly csrfRefusals = new Counter({
    name: 'sports_graph_csrf_refusals_total',
    help: 'Cross-site browser requests refused before running an operation (CSRF_REFUSED), by their Sec-Fetch-Site ("absent" when the browser sent none).',
    labelNames: ['fetch_site'] as const,
    registers: [this.registry],
  });

  readonly cacheMisses = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_cache_misses_total',
    help: 'Upstream resources that needed an upstream request.',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly staleAnswers = new AfterAnswerCounter(this.afterAnswer, {
    name: 'sports_graph_cache_stale_answers_total',
    help: 'Answers served from stale cache entries because the upstream could not give a fresh one.',
    labelNames: ['route', 'reason'] as const,
    registers: [this.registry],
  });

  // The operation metrics @graphql-yoga/plugin-prometheus observes (src/operation-metrics.ts): the names, help and labels it gives them itself.
  readonly operations = new AfterAnswerCounter(this.afterAnswer, {
    name: 'graphql_envelop_request',
    help: 'Counts the amount of GraphQL requests executed through Envelop',
    labelNames: ['operationType', 'operationName'] as const,
    registers: [this.registry],
  });

  readonly operationDuration = new AfterAnswerHistogram(this.afterAnswer, {
    name: 'graphql_envelop_request_duration',
    help: 'Time spent on running the GraphQL operation from parse to execute',
    labelNames: ['operationType', 'operationName'] as const,
    buckets: defaultSecondsBuckets,
    registers: [this.registry],
  });

  readonly operationErrors = new AfterAnswerCounter(this.afterAnswer, {
    name: 'graphql_envelop_error_result',
    help: 'Counts the amount of errors reported from all phases',
    labelNames: ['operationType', 'operationName', 'path', 'phase'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new AfterAnswerHistogram(this.afterAnswer, {
    name: 'graphql_yoga_http_duration',
    help: 'Time spent on HTTP connection',
    labelNames: ['operationName', 'operationType', 'method', 'statusCode', 'url'] as const,
    buckets: defaultSecondsBuckets,
    registers: [this.registry],
  });

  /**
   * The allowance ledger, read when scraped: it changes several times per
   * counted request (reserve, commit), and setting three gauges on each
   * change cost 1 % of a truly cold operation's CPU.
   */
  #allowance: { snapshot(): { readonly limit: number; readonly used: number; readonly remaining: number } } | undefined;

  readonly allowanceRemaining: Gauge = new Gauge({
    name: 'sports_graph_allowance_remaining',
    help: 'Counted upstream requests left in the daily allowance.',
    registers: [this.registry],
    collect: (): void => this.#showAllowance(),
  });

  readonly allowanceUsed: Gauge = new Gauge({
    name: 'sports_graph_allowance_used',
    help: 'Counted upstream requests spent today.',
    registers: [this.registry],
    collect: (): void => this.#showAllowance(),
  });

  readonly allowanceLimit: Gauge = new Gauge({
    name: 'sports_graph_allowance_limit',
    help: "The plan's daily allowance.",
    registers: [this.registry],
    collect: (): void => this.#showAllowance(),
  });

  /**
   * Each upstream dispatcher registers how many sockets it holds open
   * (client.ts); the gauge sums them when scraped, so it can never drift
   * from what undici really holds (the soak checks it stays flat).
   */
  readonly upstreamSocketSources = new Set<() => number>();

  readonly upstreamOpenSockets = new Gauge({
    name: 'sports_graph_upstream_open_sockets',
    help: 'Connections open to the upstream in the HTTP keep-alive pools (the odds WebSocket is not included).',
    registers: [this.registry],
    collect: () => {
      let open = 0;
      for (const source of this.upstreamSocketSources) open += source();
      this.upstreamOpenSockets.set(open);
    },
  });

  /** The shared state (src/state/open-state.ts), read when scraped. */
  #cluster: { readonly degraded: boolean; readonly memberCount: number } | undefined;

  readonly degraded: Gauge = new Gauge({
    name: 'sports_graph_degraded',
    help: "Whether this replica runs degraded: 1 while the cluster's Redis is away and shared state falls back to local state.",
    registers: [this.registry],
    collect: (): void => this.degraded.set(this.#cluster?.degraded === true ? 1 : 0),
  });

  readonly clusterMembers: Gauge = new Gauge({
    name: 'sports_graph_cluster_members',
    help: 'Replicas this one saw alive at its last heartbeat or membership notice (1 when it runs alone).',
    registers: [this.registry],
    collect: (): void => this.clusterMembers.set(this.#cluster?.memberCount ?? 1),
  });

  /** The durable upstream cache (src/upstream/disk-entries.ts), read when scraped; undefined with `CACHE_STORE=memory`. */
  #cacheFile: { stats(): { entries: number; bytes: number; pendingWrites: number; enabled: boolean } } | undefined;

  readonly cacheFileEntries: Gauge = new Gauge({
    name: 'sports_graph_cache_file_entries',
    help: 'Upstream answers held in DATA_DIR/upstream-cache.mdb (0 with CACHE_STORE=memory).',
    registers: [this.registry],
    collect: (): void => this.cacheFileEntries.set(this.#cacheFile?.stats().entries ?? 0),
  });

  readonly cacheFileBytes: Gauge = new Gauge({
    name: 'sports_graph_cache_file_bytes',
    help: 'Bytes of encoded answers in DATA_DIR/upstream-cache.mdb, the figure CACHE_DISK_MAX_MB bounds.',
    registers: [this.registry],
    collect: (): void => this.cacheFileBytes.set(this.#cacheFile?.stats().bytes ?? 0),
  });

  readonly cacheFilePendingWrites: Gauge = new Gauge({
    name: 'sports_graph_cache_file_pending_writes',
    help: 'Answers and uses queued for DATA_DIR/upstream-cache.mdb or written but not yet committed: 0 means a crash now loses none of them.',
    registers: [this.registry],
    collect: (): void => this.cacheFilePendingWrites.set(this.#cacheFile?.stats().pendingWrites ?? 0),
  });

  /** The upstream's trouble states (src/upstream/trouble.ts), read when scraped. */
  #trouble: { activeStates(): ReadonlySet<TroubleState> } | undefined;

  readonly upstreamTrouble: Gauge<'state'> = new Gauge({
    name: 'sports_graph_upstream_trouble',
    help: 'Whether an upstream trouble state is active (1) or not (0): key_refused, unreachable, allowance_spent, image_incident, payload_invalid (src/upstream/trouble.ts; /healthz lists the active ones with a reason).',
    labelNames: ['state'] as const,
    registers: [this.registry],
    collect: (): void => {
      const active = this.#trouble?.activeStates();
      for (const state of troubleStates) this.upstreamTrouble.set({ state }, active?.has(state) === true ? 1 : 0);
    },
  });

  observeTrouble(trouble: { activeStates(): ReadonlySet<TroubleState> }): void {
    this.#trouble = trouble;
  }

  readonly cacheFileEnabled: Gauge = new Gauge({
    name: 'sports_graph_cache_file_enabled',
    help: 'DATA_DIR/upstream-cache.mdb in use: 1, or 0 once a disk fault turned it off until the next start (and with CACHE_STORE=memory).',
    registers: [this.registry],
    collect: (): void => this.cacheFileEnabled.set(this.#cacheFile?.stats().enabled === true ? 1 : 0),
  });

  observeCacheFile(
    file: { stats(): { entries: number; bytes: number; pendingWrites: number; enabled: boolean } } | undefined,
  ): void {
    this.#cacheFile = file;
  }

  observeCluster(state: { readonly degraded: boolean; readonly memberCount: number }): void {
    this.#cluster = state;
  }

  observeAllowance(ledger: {
    snapshot(): { readonly limit: number; readonly used: number; readonly remaining: number };
  }): void {
    this.#allowance = ledger;
  }

  /** Each of the three gauges, when collected, sets all three from one snapshot. */
  #showAllowance(): void {
    const quota = this.#allowance?.snapshot();
    if (quota === undefined) return;
    this.allowanceLimit.set(quota.limit);
    this.allowanceUsed.set(quota.used);
    this.allowanceRemaining.set(quota.remaining);
  }

  /** @param replica this replica's identity (`REPLICA_ID`): a label on every metric, so that replicas' series never merge. */
  constructor(replica?: string) {
    if (replica !== undefined) this.registry.setDefaultLabels({ replica });
    collectDefaultMetrics({ register: this.registry, prefix: 'sports_graph_' });
  }
}
