/**
 * A state change learnt by one replica re-classifies the cached answers on
 * every other (issue 33 in a cluster). Each replica learns match states
 * only from the payloads it reads itself (match-freshness.ts), so without
 * this a replica that never read the list showing a kick-off would keep
 * its detail of that match, fetched while it was scheduled, for its hour.
 *
 * One message on the state's bus (src/state/contracts.ts `Bus`, Redis
 * pub/sub in a cluster, this process alone) per stored payload that taught
 * its replica something: the matches whose state it changed, and when the
 * payload was stored. Delivery is at most once: a message lost leaves the
 * replica as it was before, learning from its own reads; the shared tier
 * never hands it a copy its own knowledge says is stale (`notBefore`).
 */
import { randomUUID } from 'node:crypto';
import type { Bus } from '../state/contracts.js';
import type { MatchFreshness } from './match-freshness.js';
import type { MatchPhase } from './routes/route.js';

export const MATCH_STATES_CHANNEL = 'match:states';

/** `o`: the sending process (its own messages are skipped); `at`: when the payload was stored; `s`: [match, phase, kick-off]. */
interface Message {
  readonly o: string;
  readonly at: number;
  readonly s: ReadonlyArray<readonly [string, MatchPhase, number | null]>;
}

const PHASES: ReadonlySet<string> = new Set<MatchPhase>(['scheduled', 'inPlay', 'ended', 'postponed']);

/** Publishes what `freshness` learns and records what the others learnt; returns the function that stops listening. */
export function shareMatchStates(bus: Bus, freshness: Pick<MatchFreshness, 'onLearnt' | 'heard'>): () => void {
  const origin = randomUUID();
  freshness.onLearnt((sightings, at) => {
    const message: Message = {
      o: origin,
      at,
      s: sightings.map(({ match, phase, startsAt }) => [match, phase, startsAt ?? null]),
    };
    bus.publish(MATCH_STATES_CHANNEL, JSON.stringify(message));
  });
  return bus.subscribe(MATCH_STATES_CHANNEL, (text) => {
    const message = parse(text);
    if (message === undefined || message.o === origin) return;
    freshness.heard(
      message.s.map(([match, phase, startsAt]) => ({ match, phase, startsAt: startsAt ?? undefined })),
      message.at,
    );
  });
}

/** The message, or undefined for anything this module did not write. */
function parse(text: string): Message | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return undefined;
    const { o, at, s } = value as Record<string, unknown>;
    if (typeof o !== 'string' || typeof at !== 'number' || !Array.isArray(s)) return undefined;
    const valid = s.every(
      (one: unknown) =>
        Array.isArray(one) &&
        typeof one[0] === 'string' &&
        typeof one[1] === 'string' &&
        PHASES.has(one[1]) &&
        (one[2] === null || typeof one[2] === 'number'),
    );
    return valid ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}
