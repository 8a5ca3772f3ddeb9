/**
 * Interface fields (`node`, and cross-version fields later) return upstream
 * payload objects, which do not say what GraphQL type they are. The resolver
 * that produces one tags it here; `__resolveType` reads the tag.
 */
const tags = new WeakMap<object, string>();

export function tagType<T extends object>(value: T, typeName: string): T {
  tags.set(value, typeName);
  return value;
}

export function typeOf(value: object): string | null {
  return tags.get(value) ?? null;
}
