/**
 * Freshness follows the match (issue 33): how long an answer that belongs
 * to a match stays fresh is decided by the match's state, from the one
 * table in cache-ttls.ts (`defaultMatchStateTtls`, overridable), not by its
 * route class.
 *
 * Where the state comes from: what the gateway already holds. A route whose
 * payload shows matches (a fixture list, the hub, a game's own detail)
 * names them and their phase (`MatchBinding.sightings`); every time such a
 * payload is stored, or first read after a restart, its sightings are
 * recorded here. Nothing is fetched to learn a state.
 *
 * How it is applied, at every read (so a state change re-classifies what is
 * already cached, without touching the entries):
 * - a match-bound answer (`MatchBinding.match`) is fresh for its match's
 *   state's TTL; if the match changed phase (scheduled -> in play -> ended)
 *   after the answer was fetched, the answer is stale at once: it was
 *   fetched in another phase;
 * - a list is fresh for the shortest TTL among the matches it holds (an
 *   ended match adds nothing: it will not change), capped at the far-ahead
 *   TTL (a list can still gain entries), and stale at once when one of its
 *   matches changed phase since it was fetched;
 * - an answer whose match the gateway has not seen keeps the TTL it was
 *   stored with (its route class's, or the state's when its own payload
 *   showed one).
 *
 * Why store a TTL at all, then: the stored TTL is what survives a restart.
 * An ended match's answer is stored with `IMMUTABLE_TTL_MS`, so after a
 * restart it answers before anything is known of its match, forever.
 *
 * Time-driven states: "scheduled" is far ahead, soon (within `soonWindow`
 * of kick-off, or due), or taken as postponed once `overdue` past kick-off
 * with no sign of play. A far match's TTL ends when its soon window opens,
 * a soon match's at kick-off, so a list is asked again when a match in it
 * is due to start.
 */
import { LRUCache } from 'lru-cache';
import { IMMUTABLE_TTL_MS, type MatchFreshnessSetting, type MatchState } from './cache-ttls.js';
import type { MatchBinding, MatchPhase, MatchSighting } from './routes/route.js';

/** Matches, and cache keys bound to them, kept at most. */
const MAX_TRACKED = 100_000;

/** A cache key's relation to matches, from its route and parameters. */
interface KeyBinding {
  readonly match: string | undefined;
  readonly sightings: ((payload: unknown) => readonly MatchSighting[]) | undefined;
  readonly competition: string | undefined;
  /** The matches the stored payload showed, and when that payload was stored (read once per stored answer). */
  listed?: { readonly storedAt: number; readonly matches: readonly string[] };
}

interface Known {
  phase: MatchPhase;
  startsAt: number | undefined;
  /** When the payload that showed this phase was stored (later sightings of older payloads do not move it back). */
  seenAt: number;
  /** When the match was first seen in this phase after another; 0 when it was first seen in it. */
  since: number;
}

/** What the response cache asks of an entry's freshness (cache.ts). */
export interface EntryFreshness {
  /** Milliseconds the entry stays fresh from `storedAt`, as of `now`. */
  ttlMs(
    key: string,
    entry: { readonly storedAt: number; readonly ttlMs: number; readonly value?: unknown },
    now: number,
  ): number;
}

export class MatchFreshness implements EntryFreshness {
  readonly #settings: Readonly<Record<MatchFreshnessSetting, number>>;
  // Bounded: a binding or state dropped is rebuilt from the next prepare and the next payload read.
  readonly #known = new LRUCache<string, Known>({ max: MAX_TRACKED });
  readonly #bindings = new LRUCache<string, KeyBinding>({ max: MAX_TRACKED });
  /** Each competition's matches, as its latest fixture list showed them. */
  readonly #competitions = new LRUCache<string, { readonly storedAt: number; readonly matches: readonly string[] }>({
    max: MAX_TRACKED,
  });

  constructor(settings: Readonly<Record<MatchFreshnessSetting, number>>) {
    this.#settings = settings;
  }

  /** Says what `key` belongs to (the fetcher calls it for every route call it prepares). */
  bind<P, T>(key: string, binding: MatchBinding<P, T>, params: P): void {
    if (this.#bindings.has(key)) return;
    const { sightings } = binding;
    this.#bindings.set(key, {
      match: binding.match?.(params),
      competition: binding.competition?.(params),
      sightings: sightings === undefined ? undefined : (payload: unknown) => sightings(payload as T, params),
    });
  }

  /** True when `key` is bound to a match or lists matches. */
  isBound(key: string): boolean {
    return this.#bindings.has(key);
  }

  /** The state of `match` as of `now`, or undefined when no payload the gateway holds showed it. */
  stateOf(match: string, now: number): MatchState | undefined {
    const known = this.#known.get(match);
    return known === undefined ? undefined : this.#stateAt(known, now);
  }

  /** Records what a stored payload shows (idempotent per stored answer). */
  observe(key: string, value: unknown, storedAt: number): void {
    const binding = this.#bindings.get(key);
    if (binding?.sightings === undefined || binding.listed?.storedAt === storedAt) return;
    let sightings: readonly MatchSighting[];
    try {
      sightings = binding.sightings(value);
    } catch {
      // A payload part that passed the shape check but not this reading: nothing learnt from it.
      sightings = [];
    }
    for (const sighting of sightings) this.#see(sighting, storedAt);
    binding.listed = { storedAt, matches: sightings.map((sighting) => sighting.match) };
    if (
      binding.competition !== undefined &&
      (this.#competitions.get(binding.competition)?.storedAt ?? -1) <= storedAt
    ) {
      this.#competitions.set(binding.competition, binding.listed);
    }
  }

  /**
   * The TTL a freshly loaded answer is stored with: its state's (immutable
   * for an ended match), or `classTtlMs` when nothing is known of its match.
   */
  storedTtlMs(key: string, value: unknown, storedAt: number, classTtlMs: number): number {
    this.observe(key, value, storedAt);
    const ttl = this.#policyTtlMs(key, storedAt, storedAt);
    return ttl === undefined ? classTtlMs : Math.min(ttl, IMMUTABLE_TTL_MS);
  }

  ttlMs(
    key: string,
    entry: { readonly storedAt: number; readonly ttlMs: number; readonly value?: unknown },
    now: number,
  ): number {
    if (!this.#bindings.has(key)) return entry.ttlMs;
    if (entry.value !== undefined) this.observe(key, entry.value, entry.storedAt);
    return this.#policyTtlMs(key, entry.storedAt, now) ?? entry.ttlMs;
  }

  /** The policy's TTL for the answer under `key` stored at `storedAt`, as of `now`; undefined when no state applies. */
  #policyTtlMs(key: string, storedAt: number, now: number): number | undefined {
    const binding = this.#bindings.get(key);
    if (binding === undefined) return undefined;
    if (binding.match !== undefined) {
      const known = this.#known.get(binding.match);
      if (known === undefined) return undefined;
      // Fetched in another phase than the match is in now: re-classified, asked again.
      if (storedAt < known.since) return 0;
      return this.#matchTtlMs(known, storedAt, now);
    }
    // A list's own matches; for an answer that shows none (a standings table), its competition's fixtures.
    const matches =
      binding.listed?.matches ??
      (binding.competition === undefined ? undefined : this.#competitions.get(binding.competition)?.matches);
    if (matches === undefined || matches.length === 0) return undefined;
    // A list can gain entries: never longer than a far-ahead match's answer.
    let ttl = this.#settings.scheduledFar * 1000;
    for (const match of matches) {
      const known = this.#known.get(match);
      if (known === undefined) continue;
      if (storedAt < known.since) return 0;
      ttl = Math.min(ttl, this.#matchTtlMs(known, storedAt, now));
    }
    return ttl;
  }

  /** One match's TTL for an answer stored at `storedAt`, bounded by when its state changes with time. */
  #matchTtlMs(known: Known, storedAt: number, now: number): number {
    const state = this.#stateAt(known, now);
    const ttl = this.#settings[state] * 1000;
    if (known.phase !== 'scheduled' || known.startsAt === undefined) return ttl;
    // Until the next time-driven change, counted from when the answer was stored.
    const soonAt = known.startsAt - this.#settings.soonWindow * 1000;
    if (state === 'scheduledFar') return Math.min(ttl, Math.max(0, soonAt - storedAt));
    if (state === 'scheduledSoon' && known.startsAt > storedAt) return Math.min(ttl, known.startsAt - storedAt);
    return ttl;
  }

  #stateAt(known: Known, now: number): MatchState {
    switch (known.phase) {
      case 'inPlay':
        return 'inPlay';
      case 'ended':
        return 'ended';
      case 'postponed':
        return 'postponed';
      case 'scheduled': {
        if (known.startsAt === undefined) return 'scheduledSoon';
        if (now > known.startsAt + this.#settings.overdue * 1000) return 'postponed';
        return known.startsAt - now > this.#settings.soonWindow * 1000 ? 'scheduledFar' : 'scheduledSoon';
      }
    }
  }

  #see(sighting: MatchSighting, at: number): void {
    const known = this.#known.get(sighting.match);
    if (known === undefined) {
      this.#known.set(sighting.match, { phase: sighting.phase, startsAt: sighting.startsAt, seenAt: at, since: 0 });
      return;
    }
    // An older payload read again (a stale copy, a list cached before a detail) does not move the state back.
    if (at < known.seenAt) return;
    if (known.phase !== sighting.phase) known.since = at;
    known.phase = sighting.phase;
    known.seenAt = at;
    if (sighting.startsAt !== undefined) known.startsAt = sighting.startsAt;
  }
}
