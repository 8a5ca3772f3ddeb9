/**
 * Baseball V2 lineups and the lineup confirmation subscription.
 */
import { Repeater } from 'graphql-yoga';
import { refusalError } from '../src/spend/spend-refusal.js';
import type { Resolvers } from '../src/generated/resolvers-types.js';
import type { LineupStatus } from '../src/live/lineup-poller.js';
import { loadBaseballLineups } from '../src/model/baseball-lineups.js';
import { integerId } from '../src/model/native-id.js';
import { requireV2Sport } from '../src/model/v2-namespace.js';
import { classifyLineup } from '../src/model/baseball-lineup-roles.js';
import { unclassifiedError } from '../src/upstream/degraded-parts.js';

export const baseballResolvers: Resolvers = {
  V2: {
    baseball: (ns) => {
      requireV2Sport(ns, ['BASEBALL'], 'baseball');
      return ns;
    },
  },
  V2Baseball: {
    lineups: (_, { matchId }, ctx) => loadBaseballLineups(ctx, integerId(matchId, 'match id')),
  },
  BaseballLineups: {
    matchId: (m) => String(m.matchId),
    confirmed: (m) => m.payload.data.confirmed,
    home: (m) => classifyLineup(m.payload.data.home, m.payload.data.confirmed, 'home'),
    away: (m) => classifyLineup(m.payload.data.away, m.payload.data.confirmed, 'away'),
    raw: (m) => m.payload,
  },
  // The lists are made once per side (src/model/baseball-lineup-roles.ts): no player is dropped.
  BaseballTeamLineup: {
    probablePitcher: (side) => side.probablePitcher,
    battingOrder: (side) => side.battingOrder,
    pitchers: (side) => side.pitchers,
    substitutes: (side) => side.substitutes,
    unclassified: (side) => side.unclassified,
    supportStaff: (side) => side.value.supportStaff ?? [],
  },
  BaseballLineupPlayer: {
    player: (p) => p.value.player,
    role: (p) => {
      if (p.unclassified !== undefined) throw unclassifiedError(p.unclassified.part, p.unclassified.what);
      return p.role;
    },
    position: (p) => p.value.position ?? p.value.player.position ?? null,
    battingOrder: (p) => p.value.battingOrder ?? null,
    substitute: (p) => p.value.substitute ?? null,
    statistics: (p) => Object.entries(p.value.statistics ?? {}).map(([name, value]) => ({ name, value })),
  },
  BaseballSupportStaff: {
    nativeId: (s) => String(s.id),
  },
  BaseballLineupStatus: {
    matchId: (s) => String(s.matchId),
    checkedAt: (s) => (s.checkedAt === null ? null : new Date(s.checkedAt)),
    nextCheckAt: (s) => (s.nextCheckAt === null ? null : new Date(s.nextCheckAt)),
    lineups: (s) => (s.lineups === null ? null : { matchId: s.matchId, payload: s.lineups }),
    errorCode: (s) => s.error?.code ?? null,
  },
  Subscription: {
    baseballLineupConfirmation: {
      subscribe: (_, { matchId }, ctx) => {
        const id = integerId(matchId, 'match id');
        const poller = ctx.live.lineups;
        // A client whose budget cannot pay for one poll is refused here, before any request (src/spend/poll-payers.ts).
        const refusal = poller.refusalFor(id, ctx.clientName);
        if (refusal !== undefined) throw refusalError(refusal);
        return new Repeater<LineupStatus>(async (push, stop) => {
          const unsubscribe = poller.subscribe(
            id,
            (status, final, fatal) => {
              if (fatal !== undefined) {
                stop(fatal);
                return;
              }
              void push(status);
              if (final) stop();
            },
            ctx.clientName,
          );
          await stop;
          unsubscribe();
        });
      },
      resolve: (status: LineupStatus) => status,
    },
  },
};
