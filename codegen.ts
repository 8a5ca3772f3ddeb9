import { readdirSync, readFileSync } from 'node:fs';
import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed resolvers: each GraphQL type is mapped to the upstream payload it is
 * resolved from, so the compiler checks every field a resolver derives.
 * Each domain keeps its mappers next to its SDL (`schema/<domain>.mappers.json`,
 * paths relative to `src/generated/`).
 */
const mappers: Record<string, string> = {};
for (const file of readdirSync('schema')
  .filter((name) => name.endsWith('.mappers.json'))
  .sort()) {
  Object.assign(mappers, JSON.parse(readFileSync(`schema/${file}`, 'utf8')) as Record<string, string>);
}

const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    // Which concrete types implement each interface (Node, Team, Person, Event, ...), for clients
    // whose normalized cache must match fragments on interfaces: Apollo Client's and urql graphcache's
    // `possibleTypes`. Served at /possible-types.json (src/plugins/use-possible-types.ts).
    'src/generated/possible-types.json': {
      plugins: ['fragment-matcher'],
      config: { apolloClientVersion: 3 },
    },
    'src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        mapperTypeSuffix: 'Model',
        enumsAsTypes: true,
        contextType: '../context.js#ResolverContext',
        useIndexSignature: false,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        scalars: {
          DateTime: { input: 'string', output: 'string | Date' },
          JSON: { input: 'unknown', output: 'unknown' },
          ID: { input: 'string', output: 'string' },
        },
        mappers,
      },
    },
  },
};

export default config;
