/**
 * What a piece of work really spent upstream, measured where requests are
 * counted: the ledger step of the client pipeline (client.ts `withLedger`)
 * records each request that reached the upstream on the meter the call
 * carries (`FetchOptions.meter`).
 *
 * It sees what the work started, however it went: the image chain, the 404
 * check against a data route, a 502 retried once (two requests), an answer
 * that then failed validation. A request another caller started and this
 * work only joined (in-flight sharing) carries its starter's meter and is
 * charged there: the starter pays, as a GraphQL operation's trace does.
 *
 * A meter carries a guard, its payer: asked as each counted request is
 * reserved, it is charged then, or refuses the request (a client whose
 * budget is used up), so that the one request fails, at its own field,
 * without leaving the gateway.
 *
 * Passed explicitly rather than through AsyncLocalStorage: on Node 20 an
 * active AsyncLocalStorage turns on promise hooks for the whole process,
 * which made promise-heavy code several times slower.
 */

/**
 * The payer of a meter's counted requests, asked as each one is reserved in
 * the ledger (src/spend/operation-budget.ts for a client's budget,
 * src/spend/charge-tally.ts for every other payer). The charge is made at
 * the claim, not when the answer arrives: a request whose answer never
 * comes, or comes after its operation ended, is paid all the same.
 */
export interface SpendGuard {
  /** Charges one counted request now; rejects with a coded GatewayError (nothing may be sent) when the payer cannot pay. */
  claim(): Promise<void>;
  /** A claimed request was never sent (nothing reserved, or the ledger gave its unit back): its charge is given back. */
  unclaim(): void;
  /** A claimed request left (its ledger unit is committed): its charge stands. */
  sent(): void;
}

export class SpendMeter {
  /** Requests that reached the upstream, counted or not. */
  requests = 0;
  /** Of those, the ones the allowance counts: what a client's budget is charged. */
  counted = 0;
  /**
   * Counted requests reserved in the ledger and not given back: sent, or
   * still on their way. Known as soon as the unit is held, before any
   * answer; `counted` only follows when the request ends, which for a hung
   * request is after its operation gave up on it.
   */
  reserved = 0;
  #guard: SpendGuard | undefined;
  readonly #parent: SpendMeter | undefined;

  constructor(parent?: SpendMeter) {
    this.#parent = parent;
  }

  /** Consulted before each counted request of this work (a child asks its parent's); none: only the allowance limits it. */
  get guard(): SpendGuard | undefined {
    return this.#guard ?? this.#parent?.guard;
  }

  set guard(guard: SpendGuard | undefined) {
    this.#guard = guard;
  }

  /** A meter for one part of this work (one resource): what it records is recorded here too. */
  child(): SpendMeter {
    return new SpendMeter(this);
  }

  /** A counted request holds its ledger unit and may now leave. */
  reserve(): void {
    this.reserved += 1;
    this.#parent?.reserve();
  }

  /** A reserved request never left: its unit was given back. */
  unreserve(): void {
    this.reserved -= 1;
    this.#parent?.unreserve();
  }

  /** One request reached the upstream (a request that certainly never left is not recorded). */
  record(counted: boolean): void {
    this.requests += 1;
    if (counted) this.counted += 1;
    this.#parent?.record(counted);
  }
}
