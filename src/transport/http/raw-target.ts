/**
 * The raw request target (path and query) as the client sent it, read from
 * the Node request yoga carries in its server context: URL normalisation
 * has not eaten `..`, `%2F` and the like yet, which the image routes must
 * refuse and the route table must not let through.
 */
export function rawTarget(serverContext: unknown): string | undefined {
  const req = (serverContext as { req?: { url?: unknown } } | undefined)?.req;
  return typeof req?.url === 'string' ? req.url : undefined;
}
