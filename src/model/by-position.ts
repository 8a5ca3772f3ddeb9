/**
 * A table's rows in `position` order. The upstream lists them in that order
 * already, and sorting a copy on every executed operation allocated both
 * the copy and the sort's own work arrays: the list itself is returned when
 * it is in order (resolvers and the estimate only read it), a sorted copy
 * otherwise (the payload, which the cache keeps, is never reordered).
 */
export function byPosition<T extends { readonly position: number }>(rows: T[]): T[] {
  for (let index = 1; index < rows.length; index++) {
    if (rows[index - 1]!.position > rows[index]!.position) return [...rows].sort((a, b) => a.position - b.position);
  }
  return rows;
}
