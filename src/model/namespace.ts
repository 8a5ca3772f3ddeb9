/**
 * Version namespaces (`v1`, `v1.hockey`...) carry no data of their own: their
 * fields are the routes. The object exists so resolvers have a parent.
 */
export interface Namespace {
  readonly namespace: string;
}

export const namespace = (name: string): Namespace => ({ namespace: name });
