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
import type { BaseballLineupPlayer } from '../src/upstream/routes/v2-baseball.js';

const starters = (players: readonly BaseballLineupPlayer[], role: BaseballLineupPlayer['role']) =>
  players.filter((p) => p.role === role && p.substitute !== true);

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
    home: (m) => m.payload.data.home,
    away: (m) => m.payload.data.away,
    raw: (m) => m.payload,
  },
  BaseballTeamLineup: {
    probablePitcher: (side) =>
      side.players.find((p) => p.role === 'probablePitcher') ?? starters(side.players, 'pitcher')[0] ?? null,
    // The batting order is what makes a starting batter (1..9): it still tells when `substitute` is left out.
    battingOrder: (side) =>
      starters(side.players, 'batter')
        .filter((p) => p.battingOrder !== undefined)
        .sort((a, b) => (a.battingOrder ?? 99) - (b.battingOrder ?? 99)),
    pitchers: (side) => side.players.filter((p) => p.role === 'pitcher'),
    substitutes: (side) => side.players.filter((p) => p.substitute === true),
    supportStaff: (side) => side.supportStaff ?? [],
  },
  BaseballLineupPlayer: {
    player: (p) => p.player,
    position: (p) => p.position ?? p.player.position ?? null,
    battingOrder: (p) => p.battingOrder ?? null,
    substitute: (p) => p.substitute ?? null,
    statistics: (p) => Object.entries(p.statistics ?? {}).map(([name, value]) => ({ name, value })),
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
