/**
 * Apollo Client with `possibleTypes` from the gateway.
 *
 * The schema's entities implement interfaces (`Team`, `Person`, `Event`,
 * `Node`, ...), and a fragment on an interface (`... on Team`) only matches
 * in Apollo's normalized cache when the cache knows which types implement
 * it. Without `possibleTypes` Apollo drops those fields without an error.
 * The gateway serves the map at `/possible-types.json` (generated from its
 * schema), so load it once before creating the cache.
 *
 *   npx tsx examples/apollo-client.ts [http://127.0.0.1:4000]
 */
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { fileURLToPath } from 'node:url';

const TEAMS = gql`
  query Standings($competition: ID!) {
    v1 {
      hockey {
        standings(competition: $competition) {
          entries {
            position
            competitor {
              ...TeamCard
            }
          }
        }
      }
    }
  }
  fragment TeamCard on Team {
    id
    name
    ref {
      version
      nativeId
    }
  }
`;

interface TeamCard {
  id: string;
  name: string;
  ref: { version: string; nativeId: string };
}
interface StandingsData {
  v1: { hockey: { standings: { entries: Array<{ position: number; competitor: TeamCard }> } } };
}

export async function possibleTypesOf(gatewayUrl: string): Promise<Record<string, string[]>> {
  const response = await fetch(`${gatewayUrl}/possible-types.json`);
  if (!response.ok) throw new Error(`/possible-types.json answered ${response.status}`);
  return ((await response.json()) as { possibleTypes: Record<string, string[]> }).possibleTypes;
}

export function createApolloClient(
  gatewayUrl: string,
  possibleTypes: Record<string, string[]> | undefined,
): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: `${gatewayUrl}/graphql` }),
    cache: new InMemoryCache(possibleTypes === undefined ? {} : { possibleTypes }),
  });
}

/** The league table with each team's card, read through Apollo's normalized cache. */
export async function run(gatewayUrl: string): Promise<Array<{ position: number; team: TeamCard }>> {
  const client = createApolloClient(gatewayUrl, await possibleTypesOf(gatewayUrl));
  try {
    const { data } = await client.query<StandingsData>({ query: TEAMS, variables: { competition: '11' } });
    if (data === undefined) throw new Error('no data');
    return data.v1.hockey.standings.entries.map((entry) => ({ position: entry.position, team: entry.competitor }));
  } finally {
    client.stop();
  }
}

export { TEAMS as STANDINGS_WITH_TEAM_CARDS };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify((await run(process.argv[2] ?? 'http://127.0.0.1:4000')).slice(0, 3), null, 2));
}
