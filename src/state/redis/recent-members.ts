/**
 * The replicas this one has seen alive lately: what a degraded share divides
 * by (degraded-share.ts) when Redis goes away.
 *
 * The member set in Redis forgets a replica that has not beaten for the
 * member TTL, and a replica learns of a peer only from a beat's reply or a
 * peer's notice. Dividing by the set as last read fails open on money twice:
 * a peer that stalled past the TTL (a long GC pause, a stopped process) and
 * comes back once Redis is gone still counts the others, who no longer count
 * it; and a peer that joined after the last reply is not counted at all.
 * Notices close the second gap (redis-link.ts publishes every change of the
 * set); remembering every replica seen within `rememberMs` closes the first.
 *
 * Sightings are a union with times, so lists that reach this replica in any
 * order (beat replies and notices come on two connections) give the same
 * answer. Counting a replica that crashed for a while longer only makes the
 * shares smaller: the safe side. One that said it left is forgotten at once.
 * A replica that has seen no member list at all (its first beat never got an
 * answer) does not know the cluster: it counts nobody, and its share is 0.
 */
export interface RecentMembersOptions {
  /** This replica's ID: counted once any member list was seen. */
  readonly self: string;
  /** A replica seen alive within this long is counted. @default 60_000 */
  readonly rememberMs?: number;
  /** A monotonic clock in ms. @default performance.now */
  readonly now?: () => number;
}

export class RecentMembers {
  readonly #self: string;
  readonly #rememberMs: number;
  readonly #now: () => number;
  readonly #lastSeen = new Map<string, number>();
  #sawAny = false;

  constructor({ self, rememberMs = 60_000, now = () => performance.now() }: RecentMembersOptions) {
    this.#self = self;
    this.#rememberMs = rememberMs;
    this.#now = now;
  }

  /** Every replica in `members` (a beat's reply or a notice) was alive just now. */
  saw(members: readonly string[]): void {
    const at = this.#now();
    this.#sawAny = true;
    for (const member of members) this.#lastSeen.set(member, at);
  }

  /** `member` left the cluster on its own (a clean shutdown): not counted until seen again. */
  left(member: string): void {
    this.#lastSeen.delete(member);
  }

  /** Replicas seen alive within the window, this one included, sorted; empty before any member list was seen. */
  list(): string[] {
    if (!this.#sawAny) return [];
    const since = this.#now() - this.#rememberMs;
    const recent = new Set([this.#self]);
    for (const [member, at] of this.#lastSeen) {
      if (at >= since) recent.add(member);
      else this.#lastSeen.delete(member);
    }
    return [...recent].sort();
  }

  /** How many replicas a share of what is left must be split among (0: unknown, no share). */
  get count(): number {
    return this.list().length;
  }
}
