/**
 * Relay-style refetch: every entity implements `Node`, and its `id` is a
 * global ID the gateway can fetch again with `node(id:)` (Relay's Global
 * Object Identification). This is what Relay's refetchable fragments and
 * `@refetchable` do; the network layer is Relay's `fetchFunction` shape,
 * a plain POST.
 *
 *   npx tsx examples/relay-node-refetch.ts [http://127.0.0.1:4000]
 */
import { fileURLToPath } from 'node:url';

interface GraphQLResult<T> {
  data?: T;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

/** Relay's network layer: `Network.create(fetchFunction)` takes exactly this. */
export function fetchFunction(gatewayUrl: string) {
  return async <T>(operation: { text: string }, variables: Record<string, unknown>): Promise<GraphQLResult<T>> => {
    const response = await fetch(`${gatewayUrl}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' },
      body: JSON.stringify({ query: operation.text, variables }),
    });
    return (await response.json()) as GraphQLResult<T>;
  };
}

const ATHLETE = `query Athlete($id: ID!) { v1 { hockey { athlete(id: $id) { id ...AthleteCard } } } }
fragment AthleteCard on Person { name ref { version nativeId } }`;

// The same fragment, refetched by global ID alone.
const REFETCH = `query AthleteRefetch($id: ID!) { node(id: $id) { __typename id ...AthleteCard } }
fragment AthleteCard on Person { name ref { version nativeId } }`;

export interface AthleteCard {
  id: string;
  name: string;
  ref: { version: string; nativeId: string };
}

/** An athlete as first fetched, and again through `node(id:)` with nothing but its global ID. */
export async function run(
  gatewayUrl: string,
  athleteId = '700001',
): Promise<{ first: AthleteCard; refetched: AthleteCard & { __typename: string } }> {
  const send = fetchFunction(gatewayUrl);
  const first = await send<{ v1: { hockey: { athlete: AthleteCard } } }>({ text: ATHLETE }, { id: athleteId });
  if (first.data === undefined || first.errors !== undefined)
    throw new Error(`athlete: ${JSON.stringify(first.errors)}`);
  const athlete = first.data.v1.hockey.athlete;
  const again = await send<{ node: AthleteCard & { __typename: string } }>({ text: REFETCH }, { id: athlete.id });
  if (again.data === undefined || again.errors !== undefined) throw new Error(`node: ${JSON.stringify(again.errors)}`);
  return { first: athlete, refetched: again.data.node };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000'), null, 2));
}
