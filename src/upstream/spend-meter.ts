/**
 * What a piece of work really spent upstream, measured where requests are
 * counted: the quota step of the client pipeline (client.ts `withQuota`)
 * records each request that reached the upstream on the meter the call
 * carries (`FetchOptions.meter`).
 *
 * It sees what the work started, however it went: the image chain, the 404
 * check against a data route, a 502 retried once (two requests). A request
 * another caller started and this work only joined (in-flight sharing)
 * carries its starter's meter and is charged there: the starter pays, as a
 * GraphQL operation's trace does.
 *
 * Passed explicitly rather than through AsyncLocalStorage: on Node 20 an
 * active AsyncLocalStorage turns on promise hooks for the whole process,
 * which made promise-heavy code several times slower.
 */
export class SpendMeter {
  /** Requests that reached the upstream, counted or not. */
  requests = 0;
  /** Of those, the ones the allowance counts: what a client's budget is charged. */
  counted = 0;

  /** One request reached the upstream (a request that certainly never left is not recorded). */
  record(counted: boolean): void {
    this.requests += 1;
    if (counted) this.counted += 1;
  }
}
