import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node loads graphql's CJS entry for yoga (graphql has no "exports" map);
    // vite would pick its ESM build for our code. Two copies break
    // `instanceof GraphQLError`, so both must load the same file.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'sandbox/**/*.test.ts', 'resolvers/**/*.test.ts'],
    // Every integration test starts its own sandbox and gateway on free loopback ports.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Builds dist/ (when stale) before any file runs: gateway processes run the build's output.
    globalSetup: ['test/support/build-dist.ts'],
    // Checks every operation's cost estimate against what it needed; fails the file past the bound.
    // And that every ledger unit a gateway kept was charged to a payer, exactly.
    setupFiles: ['test/support/estimate-bound.ts', 'test/support/charge-audit.ts'],
  },
});
