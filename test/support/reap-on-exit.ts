/**
 * Child processes that must not outlive this one. A test that times out
 * before its `afterAll` has a handle to close would otherwise leave a
 * redis-server or a gateway running for good: vitest ends a test file's
 * worker with SIGTERM, whose default action ends the process without any
 * 'exit' listener running. So the children are killed on 'exit' and on a
 * SIGTERM that nobody else handles, which is then raised again to end the
 * process as it would have ended. A process with a SIGTERM handler of its
 * own (`npm run cluster`) stops its children in order itself.
 */
import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();

function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

function onSigterm(): void {
  if (process.listenerCount('SIGTERM') > 1) return;
  killAll();
  process.off('SIGTERM', onSigterm);
  process.kill(process.pid, 'SIGTERM');
}

let listening = false;

export function reapOnExit(child: ChildProcess): void {
  if (!listening) {
    listening = true;
    process.once('exit', killAll);
    process.on('SIGTERM', onSigterm);
  }
  running.add(child);
  child.once('exit', () => running.delete(child));
}
