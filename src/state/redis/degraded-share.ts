/**
 * What a replica may spend on its own while Redis is away: its share of
 * what was left when it last saw the shared count, split evenly among the
 * replicas it last saw alive. Every replica takes at most its share, so the
 * cluster together never passes what was left (never fail-open on money),
 * and each keeps some (never refuse everything). What was spent from it is
 * the caller's to add to the shared count when Redis returns.
 */
export class DegradedShare {
  readonly size: number;
  #held = 0;
  #spent = 0;

  /**
   * `left`: units left as last seen; `members`: replicas seen alive lately,
   * this one included, or 0 when the replica never learnt who they are
   * (then nothing may be spent: an unknown cluster could be any size).
   */
  constructor(left: number, members: number) {
    this.size = members < 1 ? 0 : Math.max(0, Math.floor(left / members));
  }

  /** Units of the share neither spent nor held. */
  get available(): number {
    return Math.max(0, this.size - this.#held - this.#spent);
  }

  /** Holds `units`; false (nothing held) when the share has not that many left. */
  take(units: number): boolean {
    if (units > this.available) return false;
    this.#held += units;
    return true;
  }

  /** Ends a hold of `units`, of which `spent` were really spent. */
  settle(units: number, spent: number): void {
    this.#held = Math.max(0, this.#held - units);
    this.#spent += spent;
  }

  /** Nothing more may be taken (the upstream said the allowance is spent). */
  exhaust(): void {
    this.#spent = this.size;
  }
}
