/**
 * The soak's upstream: the embedded sandbox in a process of its own, so the
 * gateway's RSS and heap are the gateway's alone. Unlike `npm run sandbox` it
 * runs the odds WebSocket on the fast cadence (a frame every 150-200 ms even
 * when nothing moves) so subscription churn sees frames within a second, and
 * the mega plan's allowance so steady queries never meet a 429.
 *
 * Prints one JSON line, `{"url": "..."}`, once it listens.
 */
import { startSandbox } from '../sandbox/server.js';
import { planAllowances } from '../src/upstream/assumptions.js';

const apiKey = process.env['SPORTS_API_KEY'];
if (apiKey === undefined || apiKey === '') {
  process.stderr.write('soak sandbox: SPORTS_API_KEY is required\n');
  process.exit(2);
}

const sandbox = await startSandbox({ port: 0, apiKey, allowance: planAllowances.mega, oddsCadence: 'fast' });
process.stdout.write(`${JSON.stringify({ url: sandbox.url })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
