/**
 * A version of what the gateway knows without asking the upstream: the
 * response cache's entries (memory and file) and the image store. Every
 * change to either, an eviction included, moves it on.
 *
 * Why: the cost estimate (src/spend/estimate/estimate.ts) reads that state through
 * several doors (cache peeks, freshness checks, listings, the image store),
 * and src/spend/estimate/estimate-memo.ts reuses an estimate only while none of it
 * has changed. One counter for all of it, shared by every gateway of the
 * process, can only make the memo miss more often than it needs to (a
 * change it did not read), never answer from a state that has moved.
 */
let version = 0;

/** The current version: equal twice only when nothing known changed in between. */
export function knownStateVersion(): number {
  return version;
}

/** Called by every writer of known state (cache entries, the image store). */
export function knownStateChanged(): void {
  version += 1;
}
