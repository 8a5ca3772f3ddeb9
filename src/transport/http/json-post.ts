/**
 * Which requests yoga parses as JSON: a POST whose first content type (a
 * list is invalid HTTP, but sent) is `application/json` or
 * `application/graphql+json`, alone or with parameters. graphql-yoga's
 * `isPOSTJsonRequest` word for word; the charset is not looked at (the body
 * is read as UTF-8 whatever it says).
 */
function matches(contentType: string, expected: string): boolean {
  return contentType === expected || contentType.startsWith(`${expected};`);
}

export function isJsonPost(method: string | undefined, contentType: string | null | undefined): boolean {
  if (method !== 'POST') return false;
  if (contentType === undefined || contentType === null) return false;
  // The first of a list, without splitting the header on every request.
  const comma = contentType.indexOf(',');
  const first = comma < 0 ? contentType : contentType.slice(0, comma);
  if (first === '') return false;
  return matches(first, 'application/json') || matches(first, 'application/graphql+json');
}

/**
 * A JSON POST's body as the result-cache fast path parsed it, kept for
 * yoga's parser (src/plugins/use-buffered-json.ts) when the fast path
 * missed: the body is parsed once per request, not once per door. Only a
 * plain object is kept (what yoga's parser would hand on as it is); the
 * fast path only reads it.
 */
const parsedBody = Symbol('sports-graph.parsedJsonBody');
type WithParsed = { [parsedBody]?: Record<string, unknown> };

export function keepParsedBody(req: object, parsed: Record<string, unknown>): void {
  (req as WithParsed)[parsedBody] = parsed;
}

export function parsedBodyOf(req: object): Record<string, unknown> | undefined {
  return (req as WithParsed)[parsedBody];
}
