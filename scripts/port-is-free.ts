/**
 * Whether nothing listens on a loopback port right now. A gateway told to
 * bind a taken port exits, but another server already there that answers
 * /healthz would pass for the replica; so a launcher with fixed ports checks
 * before it starts anything, not after.
 */
import { createServer } from 'node:net';

export async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
