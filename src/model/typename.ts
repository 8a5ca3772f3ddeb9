/**
 * Interface fields (`node`, and cross-version fields later) return upstream
 * payload objects, which do not say what GraphQL type they are. The resolver
 * that produces one tags it here; `__resolveType` reads the tag.
 *
 * The tag is a symbol-keyed property of the object, not a WeakMap entry: a
 * cold operation tags hundreds of fresh payload objects, and a WeakMap keyed
 * by objects that die young makes every young-generation GC walk its
 * table (issue 16: the truly cold gateway spent 8 % of its CPU in
 * scavenges, ten times the REST client's). A symbol key is invisible to
 * JSON, `Object.keys` and the cache file's encoder, and, not enumerable,
 * to a spread copy, which must not claim its source's type.
 */
const TYPE_NAME: unique symbol = Symbol('sports-graph.typeName');

interface Tagged {
  [TYPE_NAME]?: string;
}

export function tagType<T extends object>(value: T, typeName: string): T {
  const tagged = value as T & Tagged;
  if (tagged[TYPE_NAME] === typeName) return value;
  if (Object.hasOwn(tagged, TYPE_NAME)) tagged[TYPE_NAME] = typeName;
  else
    Object.defineProperty(tagged, TYPE_NAME, {
      value: typeName,
      writable: true,
      enumerable: false,
      configurable: true,
    });
  return value;
}

export function typeOf(value: object): string | null {
  return (value as Tagged)[TYPE_NAME] ?? null;
}
