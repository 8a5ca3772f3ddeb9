/**
 * The upstream trouble states (src/upstream/trouble.ts) and the code
 * `/healthz` gives for each. They are health reasons, not `extensions.code`s:
 * alerts and the `sports_graph_upstream_trouble{state}` series match on
 * them, so they are as stable as the error codes beside them.
 */
export const troubleStates = [
  'key_refused',
  'unreachable',
  'allowance_spent',
  'image_incident',
  'payload_invalid',
] as const;

export type TroubleState = (typeof troubleStates)[number];

/** The code `/healthz` gives for each state (stable: alerts match on it). */
export const troubleCodes: Readonly<Record<TroubleState, string>> = {
  key_refused: 'UPSTREAM_KEY_REFUSED',
  unreachable: 'UPSTREAM_UNREACHABLE',
  allowance_spent: 'ALLOWANCE_SPENT',
  image_incident: 'IMAGE_INCIDENT',
  payload_invalid: 'UPSTREAM_PAYLOAD_INVALID',
};
