/**
 * A loopback port the OS reports free right now, for the tools that start
 * processes on ports they must know before the process binds them (bench,
 * soak, the "connection refused" fault test). Another process may take it
 * in between; on loopback in a test or bench run that does not happen.
 */
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
