/**
 * A gateway's Redis round trips as its /metrics shows them
 * (`sports_graph_redis_round_trips_total`, src/state/redis/round-trips.ts),
 * for the tests and the bench that count what operations cost in Redis.
 *
 * Background senders run on their own timers whatever the operations do
 * (the membership heartbeat, redis-link.ts; the ledger's periodic read,
 * redis-ledger.ts): they are left out, and nothing else is.
 */
export const BACKGROUND_SENDERS: ReadonlySet<string> = new Set(['sgHeartbeat', 'sgLedgerRead']);

const SERIES = /^sports_graph_redis_round_trips_total\{([^}]*)\} (\d+)$/gm;

/** The gateway's round trips so far, by sender, background senders left out. */
export async function redisRoundTrips(
  gatewayUrl: string,
  headers: Record<string, string> = {},
): Promise<Map<string, number>> {
  const response = await fetch(`${gatewayUrl}/metrics`, { headers });
  if (!response.ok) throw new Error(`${gatewayUrl}/metrics answered ${response.status}`);
  const bySender = new Map<string, number>();
  for (const [, labels = '', value] of (await response.text()).matchAll(SERIES)) {
    const sender = /sender="([^"]+)"/.exec(labels)?.[1];
    if (sender !== undefined && !BACKGROUND_SENDERS.has(sender)) bySender.set(sender, Number(value));
  }
  return bySender;
}

/** What moved between two readings, by sender (only those that moved). */
export function roundTripsBetween(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
): Record<string, number> {
  const moved: Record<string, number> = {};
  for (const [sender, value] of after) {
    const delta = value - (before.get(sender) ?? 0);
    if (delta !== 0) moved[sender] = delta;
  }
  return moved;
}

/** Every sender's round trips together. */
export function totalRoundTrips(bySender: Readonly<Record<string, number>>): number {
  return Object.values(bySender).reduce((sum, count) => sum + count, 0);
}
