/**
 * The house plan holds: dependency-cruiser runs the rules written down in
 * .dependency-cruiser.cjs (the layers top to bottom, no import circles, the
 * sandbox apart) over the gateway's and the sandbox's sources.
 * There is no list of known exceptions: an arrow the rules forbid fails
 * here, named with the layers at both ends.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const CONFIG = '.dependency-cruiser.cjs';

interface Layer {
  name: string;
  why: string;
  paths: string[];
}
const { layers } = createRequire(import.meta.url)(join(root, CONFIG)) as { layers: Layer[] };

const layersOf = (path: string): string[] =>
  layers.filter((layer) => layer.paths.some((pattern) => new RegExp(pattern).test(path))).map((layer) => layer.name);

const readable = (violation: IViolation): string => {
  const rule = `${violation.rule.name}: `;
  if (violation.cycle !== undefined && violation.cycle.length > 0)
    return `${rule}${[violation.from, ...violation.cycle.map((step) => step.name)].join(' → ')}`;
  const where = (path: string) =>
    `${path} [${/^(src\/)?sandbox\//.test(path) ? 'sandbox' : layersOf(path).join(', ') || 'no layer'}]`;
  return `${rule}${where(violation.from)} → ${where(violation.to)}`;
};

describe('the house plan (.dependency-cruiser.cjs)', () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    const options = await extractDepcruiseOptions(join(root, CONFIG));
    const sources = ['src', 'resolvers', 'sandbox'].filter((folder) => existsSync(join(root, folder)));
    const output = await cruise(
      sources,
      { ...options, baseDir: root },
      {},
      { tsConfig: extractTSConfig(join(root, 'tsconfig.json')) },
    );
    result = output.output as ICruiseResult;
  }, 60_000);

  it('has no import circle and no arrow up the layers', () => {
    // The rules really ran: no circles, one per layer below the top, and the sandbox's two.
    const rules = (result.summary.ruleSetUsed?.forbidden ?? []).map((rule) => rule.name);
    expect(rules).toEqual(
      expect.arrayContaining(['no-circular', 'sandbox-reads-only-the-spec', 'sandbox-only-from-entry']),
    );
    expect(rules.filter((name) => name?.startsWith('layer-'))).toHaveLength(layers.length - 1);
    const fresh = (result.summary.violations ?? []).filter((violation) => violation.rule.severity !== 'ignore');
    expect(fresh.map(readable), 'arrows the rules forbid (layers in .dependency-cruiser.cjs)').toEqual([]);
  });

  it('puts every gateway module in exactly one layer', () => {
    const gateway = result.modules
      .map((module) => module.source)
      .filter((path) => /^(src|resolvers)\//.test(path) && !/^(src\/)?sandbox\//.test(path));
    expect(gateway.length).toBeGreaterThan(100);
    const misplaced = gateway
      .map((path) => ({ path, in: layersOf(path) }))
      .filter((module) => module.in.length !== 1)
      .map((module) => `${module.path}: ${module.in.length === 0 ? 'no layer' : module.in.join(' and ')}`);
    expect(misplaced, 'give each a row in the layers of .dependency-cruiser.cjs').toEqual([]);
  });
});
