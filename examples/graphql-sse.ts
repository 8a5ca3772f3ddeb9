/**
 * graphql-sse: subscriptions over Server-Sent Events, one HTTP request per
 * subscription (the protocol's "distinct connections" mode: a POST with
 * `accept: text/event-stream`, which the gateway's yoga speaks). No
 * WebSocket needed, so it passes any HTTP proxy.
 *
 *   npx tsx examples/graphql-sse.ts [http://127.0.0.1:4000]
 */
import { createClient } from 'graphql-sse';
import { fileURLToPath } from 'node:url';

const QUOTA = `subscription Quota { quotaUpdates { plan limit used remaining } }`;

export interface Quota {
  plan: string;
  limit: number;
  used: number;
  remaining: number;
}

/** The allowance as it stands (the subscription's first event). */
export async function run(gatewayUrl: string): Promise<Quota> {
  const client = createClient({ url: `${gatewayUrl}/graphql` });
  try {
    for await (const result of client.iterate<{ quotaUpdates: Quota }>({ query: QUOTA })) {
      if (result.errors !== undefined) throw new Error(JSON.stringify(result.errors));
      if (result.data !== undefined && result.data !== null) return result.data.quotaUpdates;
    }
    throw new Error('the subscription ended without an event');
  } finally {
    client.dispose();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000'), null, 2));
}
