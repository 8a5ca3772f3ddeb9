/**
 * HTTP requests the gateway has not finished answering, for the graceful
 * shutdown (src/gateway/lifecycle.ts): it waits for them, and from the drain on every
 * answer says `Connection: close`, so a keep-alive client opens its next
 * connection elsewhere instead of on a gateway about to exit.
 */
import type { RequestListener, ServerResponse } from 'node:http';

export class InFlightRequests {
  readonly #open = new Set<ServerResponse>();
  #draining = false;

  /** `next`, with each request counted until its response closes. */
  track(next: RequestListener): RequestListener {
    const open = this.#open;
    // One listener for every response (`this` is the response): no closure per request. A response closes once.
    function forget(this: ServerResponse): void {
      open.delete(this);
    }
    return (req, res) => {
      open.add(res);
      res.on('close', forget);
      if (this.#draining) res.setHeader('connection', 'close');
      next(req, res);
    };
  }

  get size(): number {
    return this.#open.size;
  }

  /** From now on every answer closes its connection (those already sent their headers cannot). */
  drain(): void {
    this.#draining = true;
    for (const res of this.#open) if (!res.headersSent) res.setHeader('connection', 'close');
  }
}

/** Resolves true once `done()` holds, false at `deadline` (ms since the epoch); asked every `everyMs`. */
export async function waitFor(done: () => boolean, deadline: number, everyMs = 20): Promise<boolean> {
  while (!done()) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}
