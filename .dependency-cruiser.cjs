/**
 * The house plan as rules: the gateway's layers, top to bottom, and the
 * rooms beside them. A module may import its own layer and the layers below
 * it, never one above; nothing may import in a circle, type-only imports
 * included (a type import still ties two files' meanings together).
 *
 * Each layer is a list of path patterns (regular expressions on the path
 * from the repository root) that no other layer matches, so every module has
 * one place. test/architecture.test.ts runs these rules over src/,
 * resolvers/ and sandbox/, and also fails for a gateway module no layer
 * claims: a new folder gets its row here first.
 */

/** Top to bottom. `why` is the reason the layer sits where it does. */
const layers = [
  {
    name: 'entry',
    why: 'programs and the composition root: they wire every room together, and nothing imports them',
    paths: [
      '^src/(main|serve|gateway|start-checks|start-line)\\.ts$',
      '^src/gateway/',
      '^src/images/import-cli\\.ts$',
      '^(bench|soak|scripts)/',
    ],
  },
  {
    name: 'front',
    why: 'how a request arrives and leaves (HTTP, graphql-ws, SSE, federation, GraphiQL, widgets) and the yoga pipeline around execution',
    paths: ['^src/(transport|plugins|federation|graphiql|widgets)/', '^src/(route-table|operation-metrics)\\.ts$'],
  },
  {
    name: 'resolvers',
    why: "GraphQL fields: arguments in, calls to features, model and loaders out (with codegen's resolver types)",
    paths: ['^resolvers/', '^src/generated/'],
  },
  {
    name: 'request',
    why: 'GatewayContext, the bag one request carries: built by the entry, read by the front and the resolvers; rooms below take narrow ports instead',
    paths: ['^src/context\\.ts$', '^src/ports/'],
  },
  {
    name: 'backends',
    why: 'state backends (local, Redis) and the seam that picks one: they implement the contracts the rooms below define, and only the entry opens them',
    paths: ['^src/state/(local/|redis/|open-state\\.ts$|state-backend\\.ts$|cache-entries-for\\.ts$)'],
  },
  {
    name: 'features',
    why: 'what the gateway offers beside plain fields: odds feeds, images, the result cache, persisted operations, tracing',
    paths: ['^src/(results|persisted|tracing)/', '^src/live/', '^src/images/(?!import-cli\\.ts$)'],
  },
  {
    name: 'estimate',
    why: "the spend estimate reads the model's routes and ids to price an operation before it runs",
    paths: ['^src/spend/estimate/'],
  },
  {
    name: 'money',
    why: 'spend gate, client budgets, refusals, charges and poll payers: they decide who pays, over the ledger contract below',
    paths: ['^src/spend/(?!estimate/|ledger\\.ts$|spend-meter\\.ts$)'],
  },
  {
    name: 'identity',
    why: "one entity across versions: known and operator links, name scoring, the link store's contract, and finding counterparts through the loader; the estimate prices its searches, and the state backends implement its store",
    paths: ['^src/identity/'],
  },
  {
    name: 'model',
    why: 'the GraphQL model of upstream payloads, and the loaders that batch upstream reads for it',
    paths: ['^src/(model|loaders)/'],
  },
  {
    name: 'upstream',
    why: 'the client of the paid REST API: fetcher, cache tiers, errors, trouble; it counts every request through the ledger below',
    paths: ['^src/upstream/(?!routes/|assumptions\\.ts$|cache-ttls\\.ts$)'],
  },
  {
    name: 'ledger',
    why: 'the Ledger contract and the spend meter: every upstream request is counted here, so they sit under the client',
    paths: ['^src/spend/(ledger|spend-meter)\\.ts$'],
  },
  {
    name: 'base',
    why: 'settings, env reading, logging, metrics, codes, client keys, state contracts and on-disk state files: used everywhere, they know no room',
    paths: [
      '^src/(config|env-reader|logger|metrics|metrics-after-answer|runtime-files)\\.ts$',
      '^src/(codes|net|access|streams|config)/',
      '^src/state/(?!local/|redis/|open-state\\.ts$|state-backend\\.ts$|cache-entries-for\\.ts$)',
    ],
  },
  {
    name: 'spec',
    why: "the upstream's own facts, shared with the sandbox: route payload types, plan assumptions, the odds socket's wire format",
    paths: ['^src/upstream/routes/', '^src/upstream/(assumptions|cache-ttls)\\.ts$'],
  },
];

const sandbox = '^(src/)?sandbox/';
const spec = layers.find((layer) => layer.name === 'spec').paths;

const upward = layers.slice(1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `${layer.name} (${layer.why}) imports no layer above it: ${layers
    .slice(0, i + 1)
    .map((above) => above.name)
    .join(', ')}`,
  severity: 'error',
  from: { path: layer.paths },
  to: { path: layers.slice(0, i + 1).flatMap((above) => above.paths) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'no import circles, type-only imports included',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
    {
      name: 'sandbox-reads-only-the-spec',
      comment: 'the sandbox is a program of its own: from the gateway it reads the spec only',
      severity: 'error',
      from: { path: sandbox },
      to: { path: '^(src|resolvers)/', pathNot: [sandbox, ...spec] },
    },
    {
      name: 'sandbox-only-from-entry',
      comment: 'the gateway starts an embedded sandbox only from its entry layer',
      severity: 'error',
      from: { path: '^(src|resolvers)/', pathNot: [sandbox, ...layers[0].paths] },
      to: { path: sandbox },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.ts$', '\\.d\\.ts$'] },
    includeOnly: '^(src|resolvers|sandbox|bench|soak|scripts)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6'],
  },
};

// For test/architecture.test.ts, which names each arrow's layers; not enumerable, so outside the config schema.
Object.defineProperty(module.exports, 'layers', { value: layers, enumerable: false });
