/**
 * The two sides every side-by-side scenario compares: the gateway answering
 * the representative operation, and the hand-written REST client's `/cold`
 * route, after one checked operation proves the gateway answers it cleanly.
 */
import { graphqlHeaders, operationBody, postOperation } from '../graphql.js';
import type { Target } from '../load.js';
import type { Service } from '../stack.js';
import { representative } from '../workload.js';

export interface Side {
  readonly service: Service;
  readonly target: Target;
}

export async function gatewayAndDirect(scenario: string, gateway: Service, direct: Service): Promise<{ gatewaySide: Side; directSide: Side }> {
  const check = await postOperation(gateway.url, representative);
  if (check.status !== 200 || check.body.errors !== undefined) throw new Error(`${scenario}: gateway errors ${JSON.stringify(check.body.errors)}`);
  return {
    gatewaySide: {
      service: gateway,
      target: { url: gateway.url, method: 'POST', path: '/graphql', headers: { ...graphqlHeaders }, body: operationBody(representative) },
    },
    directSide: { service: direct, target: { url: direct.url, method: 'GET', path: '/cold' } },
  };
}
