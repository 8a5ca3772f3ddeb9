import { describe, expect, it } from 'vitest';
import { stages, stagesOf } from './pipeline.js';

describe('the plugin pipeline', () => {
  it('runs /graphql through every stage, in this order', () => {
    expect(stagesOf('graphql').map((stage) => stage.name)).toEqual([
      'route-table',
      'cors',
      'input-bounds',
      'persisted',
      'coded-refusals',
      'buffered-json',
      'healthz',
      'readyz',
      'subscription-drain',
      'client-keys',
      'csrf',
      'disable-introspection',
      'widgets',
      'possible-types',
      'graphiql-assets',
      'images',
      'prometheus',
      'operation-limits',
      'known-operation-types',
      'incremental-delivery',
      'error-codes',
      'enum-suggestions',
      'operation-spans',
      'max-age',
      'http-caching',
      'result-cache',
      'cost-limit',
      'upstream-trace',
      'quota-after-spend',
      'introspection-bounds',
      'jit',
      'operation-timeout',
    ]);
  });

  it('runs /subgraph through the input, access and operation stages only, in the same order', () => {
    expect(stagesOf('subgraph').map((stage) => stage.name)).toEqual([
      'input-bounds',
      'persisted',
      'coded-refusals',
      'buffered-json',
      'client-keys',
      'csrf',
      'disable-introspection',
      'operation-limits',
      'known-operation-types',
      'incremental-delivery',
      'error-codes',
      'enum-suggestions',
      'operation-spans',
      'result-cache',
      'cost-limit',
      'upstream-trace',
      'quota-after-spend',
      'introspection-bounds',
      'jit',
      'operation-timeout',
    ]);
  });

  it('names each stage once and says why it sits where it does', () => {
    expect(new Set(stages.map((stage) => stage.name)).size).toBe(stages.length);
    for (const stage of stages) expect(stage.why.length, stage.name).toBeGreaterThan(20);
  });
});
