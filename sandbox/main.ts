/**
 * `npm run sandbox`: the sandbox upstream on its own, for exploring the
 * upstream by hand or pointing a gateway at it with SPORTS_API_BASE_URL.
 */
import { isPlan, planAllowances } from '../src/upstream/assumptions.js';
import { sandboxDatasetFromEnv } from './dataset-env.js';
import { startSandbox } from './server.js';

const DEFAULT_PORT = 4010;

function fail(message: string): never {
  process.stderr.write(`sandbox: ${message}\n`);
  process.exit(1);
}

const rawPort = process.env['SANDBOX_PORT'] ?? String(DEFAULT_PORT);
const port = Number(rawPort);
if (!/^\d+$/.test(rawPort) || port > 65_535) fail(`SANDBOX_PORT must be a port number, got "${rawPort}"`);

const plan = process.env['SPORTS_API_PLAN'] || 'free';
if (!isPlan(plan)) fail(`SPORTS_API_PLAN must be one of ${Object.keys(planAllowances).join(', ')}, got "${plan}"`);

const apiKey = process.env['SPORTS_API_KEY'] || 'sandbox-key';

const rawEventMs = process.env['SANDBOX_MATCH_EVENT_MS'] || '3000';
if (!/^\d+$/.test(rawEventMs))
  fail(`SANDBOX_MATCH_EVENT_MS must be a whole number of milliseconds (0 = off), got "${rawEventMs}"`);

const rawMinuteMs = process.env['SANDBOX_MATCH_MINUTE_MS'] || '10000';
if (!/^\d+$/.test(rawMinuteMs))
  fail(
    `SANDBOX_MATCH_MINUTE_MS must be a whole number of milliseconds (0 = the clocks stand still), got "${rawMinuteMs}"`,
  );

const dataset = sandboxDatasetFromEnv(process.env);
if (typeof dataset === 'object') fail(dataset.error);

const sandbox = await startSandbox({
  port,
  apiKey,
  allowance: planAllowances[plan],
  matchEventMs: Number(rawEventMs),
  matchMinuteMs: Number(rawMinuteMs),
  dataset,
});
// The key itself is never printed.
process.stdout.write(
  `sandbox upstream listening on ${sandbox.url} (plan ${plan}, ${planAllowances[plan]} requests a day, data set ${dataset})\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0));
  });
}
