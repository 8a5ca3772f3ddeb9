/**
 * The gateway as the bench runs it: the same process as `npm start`
 * (src/serve.ts), with the bench's own switches, read here and nowhere in
 * the gateway:
 *
 * - `UPSTREAM_CACHE=off`: no shared cache and no in-flight sharing, and the
 *   cache file is not opened (nothing would be stored in it);
 * - `UPSTREAM_LOADERS=off`: no per-operation de-duplication
 *   (bench/naive-upstream.ts; bench/scenarios/upstream.ts measures the naive
 *   resolver-per-field cost with both off);
 * - `BENCH_CONTROL=on`: the fan-out floor and memory probes, over the IPC
 *   channel of a gateway the bench spawned (bench/control.ts); without such
 *   a channel it does nothing. With them, the gateway's cache clock is the
 *   bench's (bench/clock-control.ts): the wall clock until the bench sets it
 *   (bench/scenarios/matchday.ts moves a simulated day on it);
 * - `BENCH_ENGINE_FLOOR_PORT=n`: the engine's floor on that loopback port
 *   (bench/engine-floor.ts: the operation executed by graphql-jit alone,
 *   in this process, over the same cached payloads).
 *
 * Built by bench/compile.ts (`compiledGateway`) as the gateway's build is.
 */
import { envReader } from '../src/env-reader.js';
import { serve } from '../src/serve.js';
import { benchClock } from './clock-control.js';
import { attachBenchControl, benchControlEnabled } from './control.js';
import { startEngineFloor } from './engine-floor.js';
import { UnsharedFetcher, unsharedLoader } from './naive-upstream.js';

const reader = envReader(process.env);
const upstreamCache = reader.bool('UPSTREAM_CACHE', true);
const upstreamLoaders = reader.bool('UPSTREAM_LOADERS', true);
const control = reader.bool('BENCH_CONTROL', false);
const engineFloorPort = reader.optionalInt('BENCH_ENGINE_FLOOR_PORT', 1);
if (reader.problems.length > 0) {
  process.stderr.write(`Invalid bench switches: ${reader.problems.join('; ')}\n`);
  process.exit(2);
}
if (!upstreamCache) process.env['CACHE_STORE'] = 'memory';

void serve({
  ...(upstreamCache ? {} : { fetcherFor: (options) => new UnsharedFetcher(options) }),
  ...(upstreamLoaders ? {} : { loaderFor: unsharedLoader }),
  ...(benchControlEnabled(control) ? { onWebSocketServer: attachBenchControl, cacheClock: benchClock() } : {}),
  ...(engineFloorPort === undefined
    ? {}
    : { onExecutable: (executable) => startEngineFloor(executable, engineFloorPort) }),
});
