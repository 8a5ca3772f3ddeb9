/**
 * `EventSource`: a subscription as a plain GET with the operation in the
 * URL, the way a browser page would open it (`new EventSource(url)`, which
 * can send no header of its own: the gateway needs none). Events are named
 * `next` and `complete`. Node 20 has no built-in EventSource: the
 * `eventsource` package is the same API.
 *
 *   npx tsx examples/event-source.ts [http://127.0.0.1:4000] [match]
 */
import { EventSource } from 'eventsource';
import { fileURLToPath } from 'node:url';

const ODDS = `subscription Odds($match: ID!) { oddsSnapshots(matchId: $match) { matchId feed markets { marketId } } }`;

export interface OddsHeadline {
  matchId: string;
  feed: string;
  markets: Array<{ marketId: string }>;
}

/** The first odds snapshot of a match, over SSE. */
export function run(gatewayUrl: string, match = '920002'): Promise<OddsHeadline> {
  const url = new URL(`${gatewayUrl}/graphql`);
  url.searchParams.set('query', ODDS);
  url.searchParams.set('variables', JSON.stringify({ match }));
  const source = new EventSource(url);
  return new Promise<OddsHeadline>((resolve, reject) => {
    source.addEventListener('next', (event) => {
      source.close();
      const payload = JSON.parse(event.data) as { data?: { oddsSnapshots: OddsHeadline }; errors?: unknown };
      if (payload.data === undefined) reject(new Error(JSON.stringify(payload.errors)));
      else resolve(payload.data.oddsSnapshots);
    });
    source.onerror = (error) => {
      source.close();
      reject(new Error(`EventSource failed: ${error.message ?? 'connection error'}`));
    };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000', process.argv[3]), null, 2));
}
