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
  const [gateway = [], direct = []] = await rotatedRounds(rounds, [sides.gatewaySide, sides.directSide], measure);
  return { gateway, direct };
}

/**
 * `rounds` measurements of each of `sides`, every round running them all in
 * turn and starting one further along than the round before: per side (in
 * the order given), its per-round figures.
 */
export async function rotatedRounds<R>(
  rounds: number,
  sides: readonly Side[],
  measure: (side: Side) => Promise<R>,
): Promise<R[][]> {
  const out: R[][] = sides.map(() => []);
  for (let i = 0; i < rounds; i += 1) {
    for (let k = 0; k < sides.length; k += 1) {
      const index = (i + k) % sides.length;
      out[index]!.push(await measure(sides[index]!));
    }
  }
  return out;
}
