/**
 * A typed front-end client: Apollo Client over the gateway, with
 *
 * - the typed documents of ./queries.ts (graphql-codegen's client preset):
 *   `client.query` infers the result and variables types from the document,
 *   with no hand-written interface;
 * - `possibleTypes` from the gateway's `/possible-types.json`, so Apollo's
 *   normalized cache matches the `TeamCard` fragment on the `Team`
 *   interface (without it the card's fields are dropped with a console
 *   warning). A deployment with introspection off (404 there) ships
 *   `src/generated/possible-types.json` with its client instead.
 *
 *   npx tsx examples/typed-client/src/client.ts [http://127.0.0.1:4000]
 */
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { fileURLToPath } from 'node:url';
import { useFragment, type FragmentType } from './gql';
import { HockeyTable, TeamCard } from './queries';

/** The shape of `/possible-types.json` (graphql-codegen's fragment-matcher output). */
interface PossibleTypesFile {
  possibleTypes: Record<string, string[]>;
}

export async function possibleTypesOf(gatewayUrl: string): Promise<Record<string, string[]>> {
  const response = await fetch(`${gatewayUrl}/possible-types.json`);
  if (!response.ok) throw new Error(`/possible-types.json answered ${response.status}`);
  return ((await response.json()) as PossibleTypesFile).possibleTypes;
}

export interface TableRow {
  position: number;
  points: number;
  team: string;
  version: string;
  nativeId: string;
}

/** What a component rendering one card reads: the fragment's fields only (fragment masking). */
function card(team: FragmentType<typeof TeamCard>): Pick<TableRow, 'team' | 'version' | 'nativeId'> {
  const { name, ref } = useFragment(TeamCard, team);
  return { team: name, version: ref.version, nativeId: ref.nativeId };
}

/** A hockey league table and the allowance left, read through Apollo's cache. */
export async function run(gatewayUrl: string, competition = '11'): Promise<{ rows: TableRow[]; remaining: number }> {
  const client = new ApolloClient({
    link: new HttpLink({ uri: `${gatewayUrl}/graphql` }),
    cache: new InMemoryCache({ possibleTypes: await possibleTypesOf(gatewayUrl) }),
  });
  try {
    const { data, error } = await client.query({ query: HockeyTable, variables: { competition } });
    if (data === undefined) throw error ?? new Error('no data');
    const table = data.v1.hockey.standings;
    if (table === null) throw new Error(`no standings for competition ${competition}`);
    const rows = table.entries.map((entry) => ({
      position: entry.position,
      points: entry.points,
      ...card(entry.competitor),
    }));
    return { rows, remaining: data.quota.remaining };
  } finally {
    client.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000'), null, 2));
}
