/**
 * urql with its defaults: queries go out as GET (`preferGetMethod:
 * 'within-url-limit'`), with no header of ours. The gateway runs them: a
 * client that is not a browser sends neither `Sec-Fetch-Site` nor `Origin`,
 * and a page of the gateway's own origin sends `Sec-Fetch-Site:
 * same-origin` (see the README's Cross-site requests).
 *
 * For urql's graphcache, pass the gateway's `/possible-types.json` map as
 * `cacheExchange({ possibleTypes })`, as the Apollo example does.
 *
 *   npx tsx examples/urql.ts [http://127.0.0.1:4000]
 */
import { Client, cacheExchange, fetchExchange, gql } from '@urql/core';
import { fileURLToPath } from 'node:url';

const SPORTS = gql`
  query Sports {
    sports {
      sport
      name
      slugs {
        v1
        v2
        v3
        v4
        v6
      }
    }
  }
`;

export interface SportInfo {
  sport: string;
  name: string;
  slugs: Record<'v1' | 'v2' | 'v3' | 'v4' | 'v6', string | null>;
}

/** Every sport and its slug in each upstream version. */
export async function run(gatewayUrl: string): Promise<SportInfo[]> {
  const client = new Client({ url: `${gatewayUrl}/graphql`, exchanges: [cacheExchange, fetchExchange] });
  const result = await client.query<{ sports: SportInfo[] }>(SPORTS, {}).toPromise();
  if (result.error !== undefined) throw result.error;
  return result.data?.sports ?? [];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await run(process.argv[2] ?? 'http://127.0.0.1:4000'), null, 2));
}
