/**
 * src/model/degraded-fields.ts wraps a resolver-less field only when a
 * payload check can drop a part of its name, and it asks when the schema is
 * built: a shape made later (an `obj({ key: opt(...) })` built inside a
 * function at request time) would drop a part whose field, never wrapped,
 * answers a silent null instead of its coded error. Every optional key the
 * route modules spell must therefore be known once they are imported.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { droppableKeyNames } from './shape.js';

const dir = fileURLToPath(new URL('.', import.meta.url));
const modules = readdirSync(dir).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

describe('droppable keys', () => {
  it('every `key: opt(` of the route modules is known once they are imported', async () => {
    for (const name of modules) await import(join(dir, name));
    const spelled = new Set<string>();
    for (const name of modules) {
      for (const match of readFileSync(join(dir, name), 'utf8').matchAll(/\b(\w+): opt\(/g)) spelled.add(match[1]!);
    }
    expect(spelled.size).toBeGreaterThan(50);
    const known = droppableKeyNames();
    expect([...spelled].filter((key) => !known.has(key))).toEqual([]);
  });
});
