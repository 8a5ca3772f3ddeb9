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

export async function gatewayAndDirect(
  scenario: string,
  gateway: Service,
  direct: Service,
): Promise<{ gatewaySide: Side; directSide: Side }> {
  const check = await postOperation(gateway.url, representative);
  if (check.status !== 200 || check.body.errors !== undefined)
    throw new Error(`${scenario}: gateway errors ${JSON.stringify(check.body.errors)}`);
  return {
    gatewaySide: {
      service: gateway,
      target: gatewayTarget(gateway.url),
    },
    directSide: { service: direct, target: { url: direct.url, method: 'GET', path: '/cold' } },
  };
}

/** The representative operation POSTed to a gateway at `url`. */
export function gatewayTarget(url: string): Target {
  return { url, method: 'POST', path: '/graphql', headers: { ...graphqlHeaders }, body: operationBody(representative) };
}

/**
 * `rounds` measurements of each side, alternating which side goes first
 * (a warming or cooling machine then favours neither): per-round figures of
 * the gateway and the REST client, in the same order.
 */
export async function interleavedRounds<R>(
  rounds: number,
  sides: { gatewaySide: Side; directSide: Side },
  measure: (side: Side) => Promise<R>,
): Promise<{ gateway: R[]; direct: R[] }> {
  const gateway: R[] = [];
  const direct: R[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const gatewayFirst = i % 2 === 0;
    const first = await measure(gatewayFirst ? sides.gatewaySide : sides.directSide);
    const second = await measure(gatewayFirst ? sides.directSide : sides.gatewaySide);
    gateway.push(gatewayFirst ? first : second);
    direct.push(gatewayFirst ? second : first);
  }
  return { gateway, direct };
}
