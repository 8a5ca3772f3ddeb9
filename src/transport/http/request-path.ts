/**
 * The path of a raw request target (`/graphql?query=...` gives `/graphql`):
 * what `target.split('?')[0]` gives, without the array and the pieces after
 * the first `?` that every request would otherwise allocate.
 */
export function pathOfTarget(target: string | undefined): string {
  if (target === undefined) return '';
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}
