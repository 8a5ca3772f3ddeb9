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
