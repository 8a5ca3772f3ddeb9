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
  const first = contentType?.split(',')[0];
  if (first === undefined || first === '') return false;
  return matches(first, 'application/json') || matches(first, 'application/graphql+json');
}
