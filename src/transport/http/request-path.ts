/**
 * Whether a request target's path is `path`, with or without a query
 * string. Asked of every request on the way in (which door, which
 * endpoint): a comparison, where `url.split('?')[0]` made an array and a
 * string each time.
 */
export function isPath(url: string | undefined, path: string): boolean {
  if (url === undefined || !url.startsWith(path)) return false;
  return url.length === path.length || url.charCodeAt(path.length) === QUESTION_MARK;
}

const QUESTION_MARK = 0x3f;
