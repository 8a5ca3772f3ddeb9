/**
 * Sends requests for `/subgraph` to the subgraph's yoga and everything
 * else to the stand-alone gateway's handler (the result-cache fast path,
 * then yoga). With the subgraph switched off (`FEDERATION_SUBGRAPH=false`)
 * the path answers a coded 404 saying so, instead of yoga's uncoded one.
 *
 * The subgraph's handler is made by the first request that needs it
 * (`makeSubgraph`), then kept.
 *
 * Only the exact path matches, as the route table's row does: anything
 * else (`/subgraph/x`, `/subgraph/../graphql`) goes to the stand-alone
 * handler, whose route table refuses or serves it.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Code } from '../codes/error-codes.js';
import { writeRefusal, type Refusal } from '../transport/http/refusal.js';
import { pathOfTarget } from '../transport/http/request-path.js';

export const SUBGRAPH_PATH = '/subgraph';

const switchedOff: Refusal = {
  status: 404,
  code: Code.NOT_FOUND,
  message: 'The federation subgraph is switched off on this gateway (FEDERATION_SUBGRAPH=false).',
};

export function routeSubgraph(
  makeSubgraph: (() => RequestListener) | undefined,
  standAlone: RequestListener,
): RequestListener {
  let subgraph: RequestListener | undefined;
  return (req: IncomingMessage, res: ServerResponse) => {
    if (pathOfTarget(req.url) !== SUBGRAPH_PATH) {
      standAlone(req, res);
      return;
    }
    if (makeSubgraph === undefined) {
      req.resume();
      writeRefusal(req, res, switchedOff);
      return;
    }
    subgraph ??= makeSubgraph();
    subgraph(req, res);
  };
}
