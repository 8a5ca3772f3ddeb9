/**
 * Reading the durable upstream cache's gauges (src/metrics.ts) from a
 * gateway's `/metrics`: a test that crashes the gateway on purpose first
 * waits until what it wants to survive is committed.
 */

export interface CacheFileGauges {
  entries: number;
  bytes: number;
  pendingWrites: number;
}

export async function cacheFileGauges(gatewayUrl: string): Promise<CacheFileGauges> {
  const text = await (await fetch(`${gatewayUrl}/metrics`)).text();
  const gauge = (name: string): number => {
    const line = text
      .split('\n')
      .find(
        (one) =>
          one.startsWith(`sports_graph_cache_file_${name}{`) || one.startsWith(`sports_graph_cache_file_${name} `),
      );
    if (line === undefined) throw new Error(`no sports_graph_cache_file_${name} on ${gatewayUrl}/metrics`);
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  return { entries: gauge('entries'), bytes: gauge('bytes'), pendingWrites: gauge('pending_writes') };
}

/** Resolves once the file holds at least `entries` answers and nothing is left to commit; fails after `boundMs`. */
export async function cacheFileSettled(
  gatewayUrl: string,
  entries: number,
  boundMs = 15_000,
): Promise<CacheFileGauges> {
  const giveUpAt = Date.now() + boundMs;
  for (;;) {
    const gauges = await cacheFileGauges(gatewayUrl);
    if (gauges.entries >= entries && gauges.pendingWrites === 0) return gauges;
    if (Date.now() > giveUpAt)
      throw new Error(`the cache file did not settle within ${boundMs} ms: ${JSON.stringify(gauges)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
