/**
 * graphql-request: one POST per operation, nothing to configure. Field
 * errors (an unknown ID, a spent allowance) come back with
 * `extensions.code`; graphql-request throws a `ClientError` holding them.
 *
 *   npx tsx examples/graphql-request.ts [http://127.0.0.1:4000]
 */
import { ClientError, gql, request } from 'graphql-request';
import { fileURLToPath } from 'node:url';

const GAME = gql`
  query Game($game: ID!) {
    v1 {
      hockey {
        lines(gameId: $game) {
          moneyline {
            home
            away
            draw
          }
          totalGoals {
            line
            over
            under
          }
        }
      }
    }
  }
`;

export interface Lines {
  moneyline: { home: number | null; away: number | null; draw: number | null } | null;
  totalGoals: { line: number | null; over: number | null; under: number | null } | null;
}

/** A game's betting lines, or the error code the gateway answered with. */
export async function run(gatewayUrl: string, game = '410001'): Promise<{ lines: Lines } | { code: string }> {
  try {
    const data = await request<{ v1: { hockey: { lines: Lines } } }>(`${gatewayUrl}/graphql`, GAME, { game });
    return { lines: data.v1.hockey.lines };
  } catch (error) {
    if (error instanceof ClientError)
      return { code: String(error.response.errors?.[0]?.extensions?.['code'] ?? 'UNKNOWN') };
    throw error;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000', process.argv[3]), null, 2));
}
