/**
 * Typed documents for the example front-end (graphql-codegen's client
 * preset): every `graphql(...)` call in src/ is checked against the
 * gateway's schema and gets its result and variables types.
 *
 *   npx graphql-codegen --config examples/typed-client/codegen.ts
 *
 * A front-end of its own would point `schema` at the gateway
 * (`http://127.0.0.1:4000/graphql`, introspection on) instead of the SDL files.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';
import { fileURLToPath } from 'node:url';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

const config: CodegenConfig = {
  // TYPED_CLIENT_SCHEMA lets the test compile the same documents against another schema.
  schema: process.env['TYPED_CLIENT_SCHEMA'] ?? here('../../schema/*.graphql'),
  documents: [here('src/**/*.ts'), `!${here('src/gql/**')}`],
  ignoreNoDocuments: false,
  generates: {
    [process.env['TYPED_CLIENT_OUT'] ?? here('src/gql/')]: {
      preset: 'client',
      config: { useTypeImports: true, enumsAsTypes: true, scalars: { DateTime: 'string', JSON: 'unknown' } },
    },
  },
};

export default config;
