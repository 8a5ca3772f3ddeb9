/**
 * The sandbox upstream as the bench runs it: a latency on every data route
 * (`BENCH_UPSTREAM_LATENCY_MS`, default 20), the mega plan's allowance (the
 * bench makes thousands of requests), the spec's odds cadence (the fanout
 * scenario asks for each frame with a match event, so frames come when the
 * bench wants them and not on a short test clock).
 */
import { planAllowances } from '../src/upstream/assumptions.js';
import { startSandbox } from '../sandbox/server.js';

const latencyMs = Number(process.env['BENCH_UPSTREAM_LATENCY_MS'] ?? '20');
const apiKey = process.env['SPORTS_API_KEY'] ?? 'bench-key';
const sandbox = await startSandbox({
  port: Number(process.env['SANDBOX_PORT'] ?? '0'),
  apiKey,
  allowance: planAllowances.mega,
  latencyMs,
  oddsCadence: 'spec',
});
// One line the bench reads to learn the port.
process.stdout.write(`${JSON.stringify({ ready: sandbox.url })}\n`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
}
