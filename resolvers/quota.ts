import { Repeater } from 'graphql-yoga';
import type { Plan, Resolvers } from '../src/generated/resolvers-types.js';
import type { QuotaSnapshot } from '../src/spend/ledger.js';

export const quotaResolvers: Resolvers = {
  Query: {
    quota: (_, __, ctx) => ctx.ledger.snapshot(),
  },
  Quota: {
    plan: (quota) => quota.plan.toUpperCase() as Plan,
    resetsAt: (quota) => new Date(quota.resetsAt),
  },
  Subscription: {
    quotaUpdates: {
      subscribe: (_, __, ctx) =>
        new Repeater<QuotaSnapshot>(async (push, stop) => {
          await push(ctx.ledger.snapshot());
          const off = ctx.ledger.onChange((snapshot) => void push(snapshot));
          await stop;
          off();
        }),
      resolve: (snapshot: QuotaSnapshot) => snapshot,
    },
  },
};
