/**
 * Who pays for a shared poll (the live ticker, a baseball lineup watch):
 * the spend gate's rule (src/spend/spend-gate.ts) for work that one client
 * starts and many share.
 *
 * - Subscribing passes the gate with the cost of one poll as things stand
 *   (a poll the cache answers fresh costs nothing): a client whose budget
 *   cannot hold it is refused, QUOTA_EXHAUSTED `scope: "client"`, before any
 *   upstream request. Nothing is held: polls are charged as they happen.
 * - Each poll is charged once: to the plan (the ledger counts it, like any
 *   counted request), and to the budget of ONE subscriber, the
 *   longest-standing one whose client the gate admits. A client without a
 *   budget (keys off, or a key without one) is always admitted: a poll it
 *   pays for is charged to the plan only. The gate holds the poll's
 *   estimate from the payer's budget, and each counted request is charged
 *   to the payer as it is reserved (src/spend/spend-meter.ts).
 * - When no subscriber can pay, or the plan cannot, the poll is not made:
 *   no upstream request, and the subscribers are told with the refusal.
 *
 * So a client with no budget left never makes the gateway spend, whether it
 * starts a poll, joins one or is the last one left in it.
 */
import { GraphQLError } from 'graphql';
import type { SpendGate, SpendRefusal } from './spend-gate.js';
import { refusalError } from './spend-refusal.js';
import type { Estimate } from './resource-estimate.js';
import { SpendMeter } from './spend-meter.js';

export type PollOutcome<T> =
  | { readonly ran: true; readonly value: T }
  /** Not made: nobody could pay (`refusal`), or nobody subscribes any more (undefined). */
  | { readonly ran: false; readonly refusal: SpendRefusal | undefined };

/** A refusal as the coded error a poll status or a subscription carries. */
export class PollRefusedError extends GraphQLError {
  readonly code: string;

  constructor(refusal: SpendRefusal) {
    const error = refusalError(refusal);
    super(error.message, { extensions: error.extensions });
    this.code = refusal.code;
  }
}

/**
 * The refusal a new subscriber of `client` gets when the gate would not
 * admit one poll costing `estimate` for it; undefined when it may
 * subscribe. Nothing stays held.
 */
export function subscriptionRefusal(
  gate: SpendGate,
  client: string | undefined,
  estimate: Estimate,
): SpendRefusal | undefined {
  return gate.check(estimate, client, 'subscription');
}

export class PollPayers {
  readonly #gate: SpendGate;
  /** Active subscriptions per client, in the order each client first subscribed (a Map keeps insertion order). */
  readonly #clients = new Map<string | undefined, number>();

  constructor(gate: SpendGate) {
    this.#gate = gate;
  }

  /** Adds one subscription of `client`; returns the function that removes it (once). */
  add(client: string | undefined): () => void {
    this.#clients.set(client, (this.#clients.get(client) ?? 0) + 1);
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      const left = (this.#clients.get(client) ?? 1) - 1;
      if (left > 0) this.#clients.set(client, left);
      else this.#clients.delete(client);
    };
  }

  /**
   * Makes one poll, charged as the module comment says. `poll` must send
   * its upstream requests with the meter it is given.
   */
  async run<T>(estimate: Estimate, poll: (meter: SpendMeter) => Promise<T>): Promise<PollOutcome<T>> {
    let refusal: SpendRefusal | undefined;
    for (const client of [...this.#clients.keys()]) {
      const admission = await this.#gate.admit(estimate, client, 'poll', 'plan');
      if (!admission.ok) {
        refusal = admission.refusal;
        // Only a client's own budget differs from one subscriber to the next.
        if (refusal.scope !== 'client') break;
        continue;
      }
      const meter = new SpendMeter();
      // Charged to the payer as each request is reserved: a poll that hangs past its deadline is paid for all the same.
      meter.guard = admission.pass.guard;
      try {
        return { ran: true, value: await poll(meter) };
      } finally {
        admission.pass.settle();
      }
    }
    return { ran: false, refusal };
  }
}
