/**
 * graphql-ws: subscriptions (and queries) over one WebSocket on
 * `/graphql`. A new subscriber to a match's odds gets its latest snapshot
 * at once, then one per upstream frame. With client keys on, send the key
 * as `connectionParams: { authorization: 'Bearer <key>' }`.
 *
 *   npx tsx examples/graphql-ws.ts [http://127.0.0.1:4000] [match]
 */
import { createClient } from 'graphql-ws';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';

const ODDS = `subscription Odds($match: ID!) {
  oddsSnapshots(matchId: $match) { matchId feed markets { marketId name suspended outcomes { name price } } }
}`;

export interface OddsSnapshot {
  matchId: string;
  feed: string;
  markets: Array<{
    marketId: string;
    name: string | null;
    suspended: boolean;
    outcomes: Array<{ name: string; price: number | null }>;
  }>;
}

/** The first `count` odds snapshots of a match. */
export async function run(gatewayUrl: string, match = '920001', count = 1): Promise<OddsSnapshot[]> {
  // Browsers have WebSocket built in; Node 20 takes it from `ws`.
  const client = createClient({ url: `${gatewayUrl.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket });
  const snapshots: OddsSnapshot[] = [];
  try {
    for await (const result of client.iterate<{ oddsSnapshots: OddsSnapshot }>({ query: ODDS, variables: { match } })) {
      if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
      if (result.data !== undefined && result.data !== null) snapshots.push(result.data.oddsSnapshots);
      if (snapshots.length >= count) break;
    }
  } finally {
    await client.dispose();
  }
  return snapshots;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000', process.argv[3]), null, 2));
}
