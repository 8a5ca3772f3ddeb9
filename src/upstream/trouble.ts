/**
 * The upstream's trouble states, as the operator sees them: each is logged
 * once when it starts and once when it ends (never once per request), shows
 * on `/healthz` as a reason with a code while it lasts, and has a 0/1
 * series of `sports_graph_upstream_trouble{state}` (src/metrics.ts).
 *
 * Fed by the client pipeline (`withTroubleWatch`, every request that was
 * really sent and what came back), by the fetcher's payload check, and by
 * the allowance ledger's changes. Nothing here refuses or delays a request:
 * it only watches.
 *
 * | state | starts at | ends at |
 * |---|---|---|
 * | `key_refused` | a 401 or 403 answer | the next 2xx answer to a keyed route |
 * | `unreachable` (per origin) | a connection failure, a connect/headers/body timeout, the operation deadline passing while waiting, a 504 | the next answer from that origin that is not a 504 |
 * | `allowance_spent` | a 429, or the ledger reaching 0 | the ledger has units again (the daily reset, or the 429's Retry-After) |
 * | `image_incident` (per version) | a 502 to an image route | the next 2xx or 404 answer to an image route of that version |
 * | `payload_invalid` (per route) | the 3rd answer in a row to the route that fails its check | the next answer to the route that passes it |
 *
 * A state "per origin", "per version" or "per route" has one start and one
 * end line for each; its metric series is 1 while any is active.
 */
import type { Logger } from 'pino';
import { upstreamAssumptions } from './assumptions.js';
import type { Ledger, QuotaSnapshot } from '../spend/ledger.js';
import { imageRoutes } from './routes/images.js';
import { troubleCodes, troubleStates, type TroubleState } from '../codes/trouble-codes.js';

export { troubleCodes, troubleStates, type TroubleState };

/** What the operator does about each state: the last part of its start line and of its `/healthz` reason. */
const actions: Readonly<Record<TroubleState, string>> = {
  key_refused:
    'check SPORTS_API_KEY (the key the upstream issued for this plan) and restart the gateway; every keyed route fails until then, cached answers are still served',
  unreachable:
    'check that SPORTS_API_BASE_URL (SPORTS_API_V3_CYCLING_BASE_URL for V3 cycling) is right and reachable from this host (DNS, firewall, proxy); cached answers are still served',
  allowance_spent:
    'wait for the reset, or move to a larger plan (SPORTS_API_PLAN); cached and stale answers are still served, everything else answers QUOTA_EXHAUSTED',
  image_incident:
    "the upstream's image layer is failing (spec 7: a 502 is never a bad ID or key); data routes are not affected and images are asked again after Retry-After; if it lasts, contact the upstream's support",
  payload_invalid:
    "the upstream's answers to this route no longer have the documented shape and the route answers UPSTREAM_INVALID_RESPONSE; report it to the upstream, or check for a newer gateway",
};

/** What each state is, for its start line and `/healthz` reason. */
const summaries: Readonly<Record<TroubleState, string>> = {
  key_refused: 'the upstream refused the API key',
  unreachable: 'the upstream cannot be reached or does not answer in time',
  allowance_spent: 'the daily upstream allowance is spent',
  image_incident: "the upstream's image layer is failing",
  payload_invalid: "the upstream's answers to a route keep failing their check",
};

/** Answers in a row that fail a route's check before `payload_invalid` starts: one bad answer is a blip, three are a change. */
export const PAYLOAD_FAILURES_IN_A_ROW = 3;

/** One active state, as `/healthz` lists it. */
export interface ActiveTrouble {
  readonly state: TroubleState;
  readonly code: string;
  /** What the state is about: the origin (`unreachable`), the version (`image_incident`), the route template (`payload_invalid`), else the state itself. */
  readonly subject: string;
  /** ISO time it started. */
  readonly since: string;
  /** The route template of the request that started it. */
  readonly route: string;
  /** The upstream's status that started it, or what happened instead (`connection refused`, `ledger at 0`). */
  readonly status: number | string;
  /** One sentence: what happened and what to do. */
  readonly reason: string;
}

/** What the pipeline tells of one request that was sent. */
export interface SentRequest {
  readonly route: { readonly template: string; readonly version: string; readonly auth: boolean };
  readonly origin: string;
}

export interface UpstreamTroubleOptions {
  readonly logger: Logger;
  /** Watched for `allowance_spent`; its changes are listened to until `close`. */
  readonly ledger: Pick<Ledger, 'onChange' | 'snapshot'>;
}

const imageTemplates: ReadonlySet<string> = new Set(Object.values(imageRoutes).map((route) => route.template));

export class UpstreamTrouble {
  readonly #logger: Logger;
  readonly #ledger: Pick<Ledger, 'onChange' | 'snapshot'>;
  /** Keyed by `state subject`. */
  readonly #active = new Map<string, ActiveTrouble & { readonly started: number }>();
  /** Route template -> failed checks in a row (only routes whose last answer failed). */
  readonly #payloadFailures = new Map<string, number>();
  /** The last request sent and what it got: what the ledger's change to 0 is told of (two fields, not an object per answer). */
  #lastRoute = 'none';
  #lastStatus: number | string = 'none';
  #resetTimer: NodeJS.Timeout | undefined;
  readonly #stopListening: () => void;

  constructor({ logger, ledger }: UpstreamTroubleOptions) {
    this.#logger = logger.child({ component: 'upstream-trouble' });
    this.#ledger = ledger;
    this.#stopListening = ledger.onChange((snapshot) => this.#allowanceChanged(snapshot));
  }

  /** An answer came back (any status). Cheap when nothing is wrong: this runs for every upstream answer. */
  answered(request: SentRequest, status: number): void {
    this.#lastRoute = request.route.template;
    this.#lastStatus = status;
    if (this.#active.size === 0 && status < 400) return;
    const { route } = request;
    if (status !== 504) this.#end('unreachable', request.origin);
    if (status >= 200 && status < 300 && route.auth) this.#end('key_refused', 'key_refused');
    const image = imageTemplates.has(route.template);
    if (image && ((status >= 200 && status < 300) || status === 404)) this.#end('image_incident', route.version);

    // A 429 starts `allowance_spent` through the ledger, which it sets to 0 (with the reset the 429 gave).
    if (status === 401 || status === 403) this.#start('key_refused', 'key_refused', route.template, status);
    else if (status === 504) this.#start('unreachable', request.origin, route.template, status);
    else if (status === 502 && image) this.#start('image_incident', route.version, route.template, status);
  }

  /** The request got no answer: `what` says why, in the pipeline's own words (never the upstream's text). */
  unreachable(request: SentRequest, what: string): void {
    this.#lastRoute = request.route.template;
    this.#lastStatus = what;
    this.#start('unreachable', request.origin, request.route.template, what);
  }

  /** A 2xx answer's body was checked (src/upstream/payload-check.ts): `passed` false when the route could not use it. */
  payloadChecked(template: string, passed: boolean): void {
    if (passed) {
      // Most answers pass and nothing was failing: one Map lookup.
      if (this.#payloadFailures.size === 0) return;
      if (this.#payloadFailures.delete(template)) this.#end('payload_invalid', template);
      return;
    }
    const failures = (this.#payloadFailures.get(template) ?? 0) + 1;
    this.#payloadFailures.set(template, failures);
    if (failures >= PAYLOAD_FAILURES_IN_A_ROW) this.#start('payload_invalid', template, template, 'invalid payload');
  }

  /**
   * Every active state, oldest first. The allowance is read again first: a
   * reset no request saw yet ends its state here, and a count that changed
   * without a change event (a cluster's shared count read back) starts it.
   */
  list(): ActiveTrouble[] {
    this.#allowanceChanged(this.#ledger.snapshot());
    return [...this.#active.values()].map(({ started: _started, ...trouble }) => trouble);
  }

  /** The states with at least one active subject (the metric's 1s). */
  activeStates(): ReadonlySet<TroubleState> {
    const states = new Set<TroubleState>();
    for (const trouble of this.list()) states.add(trouble.state);
    return states;
  }

  close(): void {
    this.#stopListening();
    clearTimeout(this.#resetTimer);
  }

  #allowanceChanged(snapshot: QuotaSnapshot): void {
    const spent = snapshot.remaining === 0;
    const active = this.#active.has('allowance_spent allowance_spent');
    if (spent === active) return;
    if (!spent) {
      clearTimeout(this.#resetTimer);
      this.#end('allowance_spent', 'allowance_spent');
      return;
    }
    const status = this.#lastStatus === upstreamAssumptions.quotaExhaustedStatus ? this.#lastStatus : 'ledger at 0';
    this.#start('allowance_spent', 'allowance_spent', this.#lastRoute, status, snapshot);
  }

  #start(
    state: TroubleState,
    subject: string,
    route: string,
    status: number | string,
    allowance?: QuotaSnapshot,
  ): void {
    const key = `${state} ${subject}`;
    if (this.#active.has(key)) return;
    const started = Date.now();
    const where = subject === state ? '' : ` (${subject})`;
    let reason = `${summaries[state]}${where}: ${route} answered ${status}; ${actions[state]}`;
    if (allowance !== undefined) {
      const { resetsAt, limit, plan } = allowance;
      reason = `${summaries[state]} (plan ${plan}, ${limit} a day; resets at ${new Date(resetsAt).toISOString()}): ${route} answered ${status}; ${actions[state]}`;
      this.#watchReset(resetsAt);
    }
    const trouble = {
      state,
      code: troubleCodes[state],
      subject,
      since: new Date(started).toISOString(),
      route,
      status,
      reason,
      started,
    };
    this.#active.set(key, trouble);
    this.#logger.warn(
      { trouble: state, code: trouble.code, subject, route, status },
      `upstream trouble started: ${reason}`,
    );
  }

  #end(state: TroubleState, subject: string): void {
    const key = `${state} ${subject}`;
    const trouble = this.#active.get(key);
    if (trouble === undefined) return;
    this.#active.delete(key);
    const lastedMs = Date.now() - trouble.started;
    const where = subject === state ? '' : ` (${subject})`;
    this.#logger.info(
      { trouble: state, code: trouble.code, subject, route: trouble.route, lastedMs },
      `upstream trouble ended: ${summaries[state]}${where} no longer holds, after ${Math.round(lastedMs / 1000)} s`,
    );
  }

  /** The ledger resets lazily (on its next read): read it at the reset, so that the end line comes then and not at the next request. */
  #watchReset(resetsAt: number): void {
    clearTimeout(this.#resetTimer);
    const delayMs = Math.max(0, Math.min(resetsAt - Date.now(), 2_147_483_647)) + 50;
    this.#resetTimer = setTimeout(() => this.#allowanceChanged(this.#ledger.snapshot()), delayMs);
    this.#resetTimer.unref();
  }
}
