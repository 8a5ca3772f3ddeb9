/**
 * What must hold before the gateway process starts anything (the embedded
 * sandbox, the state, the listener): the port can be listened on, and in
 * cluster mode Redis answers. Each failure is one line for the operator,
 * naming the setting and the fix; src/main.ts prints it and exits 2.
 *
 * The port is tried by listening on it and closing at once: another program
 * can still take it before the gateway listens, which src/main.ts reports
 * with the same line (`portProblem`).
 */
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

/** How long Redis has to answer PING at start. @default 3_000, as long as the link waits at open (src/state/redis/redis-link.ts) */
export const REDIS_START_TIMEOUT_MS = 3_000;

const address = (host: string, port: number): string => `${host.includes(':') ? `[${host}]` : host}:${port}`;

/** The line for a listen error on `host:port`; undefined when the error is not about the address. */
export function portProblem(error: unknown, host: string, port: number): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  switch (code) {
    case 'EADDRINUSE':
      return `PORT ${port} is already in use on ${address(host, port)} (another gateway, or another program): stop it, or set PORT to a free port (PORT=0 picks one).`;
    case 'EACCES':
      return `PORT ${port} may not be listened on by this user (ports below 1024 need privileges): set PORT to 1024 or above.`;
    case 'EADDRNOTAVAIL':
      return `HOST ${host} is not an address of this machine, so PORT ${port} cannot be listened on there: set HOST to one of its addresses (0.0.0.0 for every interface).`;
    default:
      return undefined;
  }
}

/** Undefined when `host:port` can be listened on now; else the line saying why not and what to do. */
export async function checkPort(host: string, port: number): Promise<string | undefined> {
  // Port 0 is any free port: nothing to check.
  if (port === 0) return undefined;
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host, exclusive: true }, resolve);
    });
  } catch (error) {
    return (
      portProblem(error, host, port) ??
      `PORT ${port} on ${address(host, port)} cannot be listened on (${String((error as Error).message)}): set PORT and HOST to an address this machine can listen on.`
    );
  } finally {
    await new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve()));
  }
  return undefined;
}

/** `scheme://host:port` of a Redis URL: never its password or user. */
function shown(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.protocol}//${url.host}`;
}

/** Undefined when Redis at `redisUrl` answers PING within `timeoutMs`; else the line saying why not and what to do. */
export async function checkRedis(redisUrl: string, timeoutMs = REDIS_START_TIMEOUT_MS): Promise<string | undefined> {
  const client = new Redis(redisUrl, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // One try: the question is whether it answers now, not eventually.
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  let why: string | undefined;
  // An unheard 'error' event would end the process with a stack instead of the line.
  client.on('error', (error: Error) => {
    why ??= error.message;
  });
  try {
    await client.connect();
    await client.ping();
    return undefined;
  } catch (error) {
    why ??= (error as Error).message;
    return `REDIS_URL ${shown(redisUrl)} did not answer (${why}): start Redis there or correct REDIS_URL (unset it to run a single gateway without Redis).`;
  } finally {
    client.disconnect();
  }
}
