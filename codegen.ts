import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Typed resolvers: each GraphQL type is mapped to the upstream payload it is
 * resolved from, so the compiler checks every field a resolver derives.
 */
const config: CodegenConfig = {
  schema: 'schema/*.graphql',
  generates: {
    'src/generated/resolvers-types.ts': {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        useTypeImports: true,
        mapperTypeSuffix: 'Model',
        enumsAsTypes: true,
        contextType: '../context.js#GatewayContext',
        useIndexSignature: false,
        avoidOptionals: { field: true, inputValue: false, object: false, defaultValue: false },
        scalars: {
          DateTime: { input: 'string', output: 'string | Date' },
          JSON: { input: 'unknown', output: 'unknown' },
          ID: { input: 'string', output: 'string' },
        },
        mappers: {
          Quota: '../upstream/quota.js#QuotaSnapshot',
          Image: '../model/image-ref.js#ImageRef',
          SportInfo: '../upstream/routes/reference.js#SportReference',
          V1Hockey: '../model/namespace.js#Namespace',
          V1: '../model/namespace.js#Namespace',
          V1HockeyStandings: '../upstream/routes/v1.js#V1StandingsPayload',
          V1HockeyStandingsEntry: '../upstream/routes/v1.js#V1StandingsEntry',
          V1HockeyCompetitor: '../upstream/routes/v1.js#V1StandingsCompetitor',
          V1HockeyLines: '../upstream/routes/v1.js#V1LinesPayload',
          V1HockeyNews: '../upstream/routes/v1.js#V1NewsPayload',
          V1HockeyNewsArticle: '../model/v1-news.js#V1NewsArticleWithSource',
          V1NewsSource: '../upstream/routes/v1.js#V1NewsSource',
          V1HockeyAthlete: '../upstream/routes/v1.js#V1Athlete',
          V1HockeyAthleteHit: '../upstream/routes/v1.js#SearchHit',
        },
      },
    },
  },
  hooks: {},
};

export default config;
