/**
 * `GET /possible-types.json`: which concrete types implement each interface
 * of the schema (`Node`, `Team`, `Person`, `Event`, ...), as
 * `{"possibleTypes": {"Team": ["V1HockeyCompetitor", ...]}}`.
 *
 * Why: a normalized client cache (Apollo Client's InMemoryCache, urql's
 * graphcache) cannot tell whether a `V2Team` matches `... on Team` without
 * it, and Apollo then drops the fragment's fields silently. The map is made
 * at codegen time by graphql-codegen's fragment-matcher plugin
 * (codegen.ts), so it always matches the schema the gateway serves. It
 * names the schema's types as introspection does, so it is served only
 * while introspection is (src/plugins/pipeline.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runtimeDir } from '../runtime-files.js';
import type { Plugin } from 'graphql-yoga';

export const POSSIBLE_TYPES_PATH = '/possible-types.json';

const generated = join(runtimeDir('generated'), 'possible-types.json');

export function usePossibleTypes({ path = POSSIBLE_TYPES_PATH }: { path?: string } = {}): Plugin {
  // Read once at start; `npm run codegen` (run before start and test) writes it.
  const body = readFileSync(generated, 'utf8');
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (url.pathname !== path) return;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : body, {
          status: 200,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            // Changes only with the schema, i.e. with a new release of the gateway.
            'cache-control': 'public, max-age=300',
          },
        }),
      );
    },
  };
}
