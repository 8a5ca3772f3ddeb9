/**
 * A spend-gate refusal (spend-gate.ts) as each transport shows it: a coded
 * GraphQL error (operations, subscriptions), or the JSON error body of the
 * HTTP routes (`{"error": {"code", "message", "scope", ...}}`). Both carry
 * the same fields, so a client reads one refusal the same way everywhere.
 */
import { GraphQLError } from 'graphql';
import type { SpendRefusal } from './spend-gate.js';

/** `code`, `scope`, `estimated`, `resetsAt`: the fields next to the message. */
function fieldsOf(refusal: SpendRefusal): Record<string, string | number> {
  return {
    code: refusal.code,
    ...(refusal.scope === undefined ? {} : { scope: refusal.scope }),
    estimated: refusal.estimated,
    ...(refusal.resetsAt === undefined ? {} : { resetsAt: refusal.resetsAt }),
  };
}

export function refusalError(refusal: SpendRefusal): GraphQLError {
  return new GraphQLError(refusal.message, { extensions: fieldsOf(refusal) });
}

/** The JSON body of an HTTP route's refusal. */
export function refusalBody(refusal: SpendRefusal): { error: Record<string, string | number> } {
  return { error: { ...fieldsOf(refusal), message: refusal.message } };
}

/** Whole seconds until `resetsAt`, at least 1: a client told to retry never retries at once. */
export function secondsUntil(resetsAt: string, now = Date.now()): number {
  return Math.max(1, Math.ceil((Date.parse(resetsAt) - now) / 1000));
}
