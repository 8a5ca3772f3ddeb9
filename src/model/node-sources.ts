/**
 * Where `node(id:)` finds each `Node` type again: for every type, the
 * upstream routes that return it, in order of preference, built from the
 * global ID (its native ID and, for entities the upstream returns only
 * inside a list or a parent, its `via` part: see global-id.ts).
 *
 * The last source is the one loaded when nothing better is at hand. The
 * ones before it are listings read only while fresh in the cache (a
 * competitor from the table it was listed in, a V3 event from its day
 * window): they make a refetch of something just listed free, and are
 * skipped when they would cost a request that the last source costs too,
 * or could no longer hold the entity (V3 windows move every day).
 *
 * The same table gives `node`'s cost estimate (src/spend/estimate/node-cost.ts), so
 * the estimate cannot drift from what the fetch does.
 *
 * `via` keys per type (all values are the upstream's own IDs):
 *
 * | type                | via                                   | sources                                        |
 * |---------------------|---------------------------------------|------------------------------------------------|
 * | V1HockeyCompetitor  | competition?, season? (as the table names itself) | `/v1/hockey/standings` asked with fewer of those (fresh, when it is that table), then with those |
 * | V1HockeyNewsArticle | competitionId?, gameId?, limit?       | `/v1/hockey/news` with those                   |
 * | V1FootballVenue     | game                                  | World Cup game (fresh), then `/api/v1/game/{id}` |
 * | V2Venue             | team                                  | `/api/teams/{team}`                            |
 * | V1FootballCompetitor | slot (an undecided knockout slot only) | `/api/v1/world-cup/matches`                   |
 * | V1Coach             | team                                  | `/api/v1/world-cup/matches`, then the team's latest game's lineups |
 * | V3Team              | event                                 | the event's sources                            |
 * | V6BaseballTeam      | match                                 | `/match/{match}`                               |
 *
 * One entity has one ID: `via` holds only what a refetch cannot do without
 * (the parent of an entity with no route of its own), never a listing that
 * is merely cheaper. A V3 event is tried in every fresh day window of its
 * sport instead (no window in its ID); a motorsport stage and a V1 World Cup
 * game are read through their own routes whatever listed them. IDs minted
 * before this (a V3 `window`, a stage's `season` or `parent`) still resolve;
 * the stage's listing is then read first while fresh.
 *
 * Every other type has a route of its own and no `via`. An entity returned
 * by a source carries the ID's `via` again, so `node(id:).id` is the ID asked.
 */
import type { LoaderPort, UpstreamCachePort } from '../loaders/loader-ports.js';
import { ErrorCode, GatewayError } from '../upstream/errors.js';
import { knownGap } from '../upstream/known-gaps.js';
import type { Route } from '../upstream/routes/route.js';
import { v1WorldCupRoutes } from '../upstream/routes/v1-world-cup.js';
import { v1Routes, type V1StandingsPayload } from '../upstream/routes/v1.js';
import { v2AussieRulesRoutes } from '../upstream/routes/v2-aussie-rules.js';
import { v2EventRoutes } from '../upstream/routes/v2-events.js';
import { v2MotorsportRoutes } from '../upstream/routes/v2-motorsport.js';
import { v2Routes } from '../upstream/routes/v2.js';
import { v3Routes, type V3Event, type V3WindowName } from '../upstream/routes/v3.js';
import { v6BaseballRoutes } from '../upstream/routes/v6-baseball.js';
import { v6FootballRoutes } from '../upstream/routes/v6-football.js';
import type { GlobalId, GlobalIdVia } from './global-id.js';
import { listedAt } from './listing.js';
import { integerId } from './native-id.js';
import { tagType } from './typename.js';
import { splitLineup } from './v1-lineup.js';
import { latestStartedGame, worldCupGameModel, type V1CoachModel } from './v1-world-cup.js';
import { v2EventModel } from './v2-event.js';
import type { V3EventModel, V3TeamModel } from './v3-namespace.js';
import { opaqueV6Id } from './v6-id.js';
import type { V6MatchTeamStatsModel } from './v6-team-stats.js';

/** One upstream resource that may hold the entity, and how to take it out. */
export interface NodeSource {
  readonly route: Route<never, unknown>;
  readonly params: unknown;
  /** The entity, tagged with its type, or undefined when this payload does not hold it. */
  pick(payload: unknown): object | undefined;
  /**
   * Set when this resource only names the one that holds the entity (a V1
   * coach: the matches list names the team's latest game, whose lineups
   * hold the coach): that resource, or undefined when none. `pick` is then
   * not used.
   */
  follow?(payload: unknown): NodeSource | undefined;
}

function source<P, T>(route: Route<P, T>, params: P, pick: (payload: T) => object | undefined): NodeSource {
  return { route: route as unknown as Route<never, unknown>, params, pick: (payload) => pick(payload as T) };
}

function followed<P, T>(route: Route<P, T>, params: P, follow: (payload: T) => NodeSource | undefined): NodeSource {
  return {
    route: route as unknown as Route<never, unknown>,
    params,
    pick: () => undefined,
    follow: (payload) => follow(payload as T),
  };
}

/** Sources in order of preference, the last loaded whatever the cache holds. Throws on an ID no route can serve. */
export type NodeSources = (id: GlobalId) => readonly NodeSource[];

/** A copy of an upstream object (shared by the cache) carrying the ID's type and `via`. */
function found<T extends object>(value: T, typeName: string, via: GlobalIdVia | undefined): T {
  return tagType(listedAt({ ...value }, via ?? {}), typeName);
}

/** A model made for this resolution, carrying the ID's type and `via`. */
function made<T extends object>(model: T, typeName: string, via: GlobalIdVia | undefined): T {
  return tagType(listedAt(model, via ?? {}), typeName);
}

const viaInteger = (id: GlobalId, key: string): number | undefined =>
  id.via?.[key] === undefined ? undefined : integerId(id.via[key], `${key} in the global ID`);

function requiredVia(id: GlobalId, key: string, alternative: string): string {
  const value = id.via?.[key];
  if (value === undefined) {
    throw new GatewayError(
      ErrorCode.NotSupported,
      `This ${id.typeName} ID does not say where it was listed (an ID minted before it did).`,
      {
        alternative,
      },
    );
  }
  return value;
}

const V3_WINDOWS: readonly V3WindowName[] = ['today', 'live', 'yesterday', 'tomorrow'];

/**
 * A V3 event from any of its sport's day windows (while fresh), else from
 * `/v3/match/{id}`; `as` turns it into what is asked. The ID does not name
 * the window it was listed in (one event, one ID): every window is tried,
 * and a window not in the cache is skipped without a request.
 */
function v3EventSources(id: GlobalId, eventId: number, as: (event: V3EventModel) => object | undefined): NodeSource[] {
  const sources: NodeSource[] = [];
  if (id.sport !== '') {
    for (const window of V3_WINDOWS) {
      sources.push(
        source(v3Routes.window, { sport: id.sport, window }, (payload) => {
          for (const league of payload.leagues) {
            const event = league.events.find((e) => e.id === eventId);
            if (event !== undefined)
              return as({ slug: id.sport, value: event, league: { id: league.id, name: league.name } });
          }
          return undefined;
        }),
      );
    }
  }
  sources.push(
    source(v3Routes.match, { id: eventId }, ({ match }) =>
      match.id === eventId
        ? as({ slug: match.sport, value: match, league: { id: match.league.id, name: match.league.name } })
        : undefined,
    ),
  );
  return sources;
}

const v3TeamOf = (event: V3Event, teamId: number) =>
  [event.homeTeam, event.awayTeam].find((team) => team.id === teamId);

export const nodeSources: Readonly<Record<string, NodeSources>> = {
  V1HockeyAthlete: (id) => {
    const athleteId = integerId(id.nativeId, 'athlete id');
    return [
      source(v1Routes.athletes, { athleteId }, (p) => {
        const athlete = p.athletes.find((candidate) => candidate.id === athleteId) ?? p.athletes[0];
        return athlete === undefined ? undefined : tagType(athlete, 'V1HockeyAthlete');
      }),
    ];
  },
  V1HockeyCompetitor: (id) => {
    const competitorId = integerId(id.nativeId, 'competitor id');
    const params = { competition: viaInteger(id, 'competition'), seasonNum: viaInteger(id, 'season') };
    const pick = (p: V1StandingsPayload) => {
      const entry = p.standings.find((e) => e.competitor.id === competitorId);
      return entry === undefined ? undefined : found(entry.competitor, 'V1HockeyCompetitor', id.via);
    };
    // The ID names the table as the table names itself; the same table asked with fewer arguments
    // (the default one) is read while fresh, when its payload says it is that table.
    const sameTable = (p: V1StandingsPayload) =>
      p.competitionId === params.competition && p.seasonNum === params.seasonNum ? pick(p) : undefined;
    const shorter = [
      { competition: undefined, seasonNum: undefined },
      { competition: params.competition, seasonNum: undefined },
      { competition: undefined, seasonNum: params.seasonNum },
    ].filter(
      (asked, index, all) =>
        (asked.competition !== params.competition || asked.seasonNum !== params.seasonNum) &&
        all.findIndex((other) => other.competition === asked.competition && other.seasonNum === asked.seasonNum) ===
          index,
    );
    return [
      ...shorter.map((asked) => source(v1Routes.standings, asked, sameTable)),
      source(v1Routes.standings, params, pick),
    ];
  },
  V1HockeyNewsArticle: (id) => {
    const articleId = integerId(id.nativeId, 'article id');
    const params = {
      competitionId: viaInteger(id, 'competitionId'),
      gameId: viaInteger(id, 'gameId'),
      limit: viaInteger(id, 'limit'),
    };
    return [
      source(v1Routes.news, params, (p) => {
        const article = p.data.news.find((a) => a.id === articleId);
        if (article === undefined) return undefined;
        const sources = new Map(p.data.newsSources.map((s) => [s.id, s]));
        return made({ article, sources }, 'V1HockeyNewsArticle', id.via);
      }),
    ];
  },
  V1WorldCupMatch: (id) => {
    const gameId = integerId(id.nativeId, 'game id');
    // The game detail is a superset of the match list entry.
    return [source(v1WorldCupRoutes.game, { gameId }, (p) => tagType(p.game, 'V1WorldCupMatch'))];
  },
  V1FootballCompetitor: (id) => {
    const competitorId = integerId(id.nativeId, 'competitor id');
    const slot = id.via?.['slot'];
    if (slot !== undefined) {
      // An undecided knockout slot (nativeId 0) has no route: it is read in the matches list, until decided.
      return [
        source(v1WorldCupRoutes.matches, {}, ({ matches }) => {
          for (const match of matches) {
            for (const team of [match.homeCompetitor, match.awayCompetitor]) {
              if (team.placeholder === true && team.name === slot) return found(team, 'V1FootballCompetitor', id.via);
            }
          }
          return undefined;
        }),
      ];
    }
    return [
      source(v1WorldCupRoutes.competitor, { id: competitorId }, (p) => tagType(p.competitor, 'V1FootballCompetitor')),
    ];
  },
  V1FootballVenue: (id) => {
    const venueId = integerId(id.nativeId, 'venue id');
    const gameId = integerId(
      requiredVia(id, 'game', 'v1 { worldCup { gameDetail(id:) { venue } } }'),
      'game in the global ID',
    );
    const venueOf = (game: { venue?: { id: number } | undefined }) =>
      game.venue !== undefined && game.venue.id === venueId ? found(game.venue, 'V1FootballVenue', id.via) : undefined;
    return [
      source(v1WorldCupRoutes.worldCupGame, { id: gameId }, (p) => venueOf(p.game)),
      source(v1WorldCupRoutes.game, { gameId }, (p) => venueOf(p.game)),
    ];
  },
  V1WorldCupGame: (id) => {
    const gameId = integerId(id.nativeId, 'game id');
    // The World Cup game route holds everything (fresh, it is free); the game route is the one the other V1 games read.
    return [
      source(v1WorldCupRoutes.worldCupGame, { id: gameId }, (p) =>
        made(worldCupGameModel(p.game), 'V1WorldCupGame', undefined),
      ),
      source(v1WorldCupRoutes.game, { gameId }, (p) => made({ game: p.game }, 'V1WorldCupGame', undefined)),
    ];
  },
  V1Coach: (id) => {
    const athleteId = integerId(id.nativeId, 'athlete id');
    const teamId = integerId(
      requiredVia(id, 'team', 'v1 { worldCup { competitor(id:) { coach } } }'),
      'team in the global ID',
    );
    // As V1FootballCompetitor.coach reads it (spec 2.6): the team's latest game, then that game's lineups.
    return [
      followed(v1WorldCupRoutes.matches, {}, ({ matches }) => {
        const latest = latestStartedGame(matches, teamId);
        if (latest === undefined) return undefined;
        return source(v1WorldCupRoutes.lineups, { gameId: latest.id }, ({ lineups }) => {
          const lineup = lineups.find((team) => team.competitorId === teamId);
          const coach = lineup === undefined ? null : splitLineup(lineup).coach;
          return coach === null || coach.id !== athleteId
            ? undefined
            : made<V1CoachModel>({ member: coach, teamId }, 'V1Coach', undefined);
        });
      }),
    ];
  },
  V2Team: (id) => {
    const slug = id.sport;
    return [
      source(v2Routes.team, { sport: slug, id: integerId(id.nativeId, 'team id') }, (p) =>
        tagType({ slug, value: p.team }, 'V2Team'),
      ),
    ];
  },
  V2Player: (id) => {
    const playerId = integerId(id.nativeId, 'player id');
    // Spec 4.9: cycling has no `/api/players/{id}` (riders are teams); the gateway never mints such an ID, but a client can build one.
    if (id.sport === 'cycling') throw knownGap('v2CyclingPlayers');
    const slug = id.sport;
    return [
      source(v2Routes.player, { sport: slug, id: playerId }, (p) => tagType({ slug, value: p.player }, 'V2Player')),
    ];
  },
  V2Tournament: (id) => {
    const slug = id.sport;
    const uniqueTournamentId = integerId(id.nativeId, 'tournament id');
    return [
      source(v2Routes.tournament, { sport: slug, uniqueTournamentId }, (p) =>
        tagType({ slug, value: p.uniqueTournament }, 'V2Tournament'),
      ),
    ];
  },
  V2Manager: (id) => {
    const slug = id.sport;
    return [
      source(v2Routes.manager, { sport: slug, id: integerId(id.nativeId, 'manager id') }, (p) =>
        tagType({ slug, value: p.manager }, 'V2Manager'),
      ),
    ];
  },
  V2Venue: (id) => {
    const slug = id.sport;
    const venueId = integerId(id.nativeId, 'venue id');
    const teamId = integerId(requiredVia(id, 'team', 'v2(sport:) { team(id:) { venue } }'), 'team in the global ID');
    return [
      source(v2Routes.team, { sport: slug, id: teamId }, ({ team }) =>
        team.venue !== undefined && team.venue.id === venueId
          ? made({ slug, value: team.venue }, 'V2Venue', id.via)
          : undefined,
      ),
    ];
  },
  V2Event: (id) => {
    const slug = id.sport;
    return [
      source(v2EventRoutes.event, { sport: slug, id: integerId(id.nativeId, 'event id') }, (p) =>
        v2EventModel(slug, p.event),
      ),
    ];
  },
  AussieRulesCoach: (id) => [
    source(v2AussieRulesRoutes.manager, { id: integerId(id.nativeId, 'coach id') }, (p) =>
      tagType(p.manager, 'AussieRulesCoach'),
    ),
  ],
  AussieRulesUmpire: (id) => [
    source(v2AussieRulesRoutes.referee, { id: integerId(id.nativeId, 'umpire id') }, (p) =>
      tagType(p.referee, 'AussieRulesUmpire'),
    ),
  ],
  AussieRulesGround: (id) => [
    source(v2AussieRulesRoutes.venue, { id: integerId(id.nativeId, 'ground id') }, (p) =>
      tagType(p.venue, 'AussieRulesGround'),
    ),
  ],
  MotorsportStage: (id) => {
    const stageId = integerId(id.nativeId, 'stage id');
    const seasonId = viaInteger(id, 'season');
    const parentId = viaInteger(id, 'parent');
    const pickFrom = (stages: ReadonlyArray<{ id: number }>) => {
      const stage = stages.find((s) => s.id === stageId);
      return stage === undefined ? undefined : found(stage, 'MotorsportStage', id.via);
    };
    const listings: NodeSource[] = [];
    if (seasonId !== undefined)
      listings.push(source(v2MotorsportRoutes.seasonStages, { seasonId }, (p) => pickFrom(p.stages)));
    if (parentId !== undefined)
      listings.push(source(v2MotorsportRoutes.substages, { id: parentId }, (p) => pickFrom(p.stages)));
    return [...listings, source(v2MotorsportRoutes.stage, { id: stageId }, (p) => pickFrom([p.stage]))];
  },
  V3Event: (id) => {
    const eventId = integerId(id.nativeId, 'event id');
    return v3EventSources(id, eventId, (event) => made(event, 'V3Event', id.via));
  },
  V3Team: (id) => {
    const teamId = integerId(id.nativeId, 'team id');
    const eventId = integerId(
      requiredVia(id, 'event', 'v3 { match(id:) { homeTeam awayTeam } }'),
      'event in the global ID',
    );
    return v3EventSources(id, eventId, (event) => {
      const team = v3TeamOf(event.value, teamId);
      // `via` as the resolvers mint it (an older ID's window left out): the team's one ID.
      return team === undefined
        ? undefined
        : made<V3TeamModel>({ slug: event.slug, value: team }, 'V3Team', { event: String(eventId) });
    });
  },
  V6BaseballMatch: (id) => [
    source(v6BaseballRoutes.match, { matchId: opaqueV6Id(id.nativeId, 'match id') }, (p) =>
      tagType(p.match, 'V6BaseballMatch'),
    ),
  ],
  V6MatchTeamStats: (id) => [
    // The stat-ID mapping the fields name the values with is free (not counted): src/model/v6-mapping-pin.ts.
    source(v6FootballRoutes.teamStats, { matchId: opaqueV6Id(id.nativeId, 'match id') }, (payload) =>
      made<V6MatchTeamStatsModel>({ payload }, 'V6MatchTeamStats', undefined),
    ),
  ],
  V6BaseballTeam: (id) => {
    const teamId = opaqueV6Id(id.nativeId, 'team id');
    const matchId = opaqueV6Id(
      requiredVia(id, 'match', 'v6 { baseball { match(id:) { homeTeam awayTeam } } }'),
      'match in the global ID',
    );
    return [
      source(v6BaseballRoutes.match, { matchId }, ({ match }) => {
        const team = [match.home, match.away].find((t) => t.id === teamId);
        return team === undefined ? undefined : found(team, 'V6BaseballTeam', id.via);
      }),
    ];
  },
};

/** By type name, in a Map: a name from a client (`constructor`) must never find a member of Object.prototype. */
const sourcesByType: ReadonlyMap<string, NodeSources> = new Map(Object.entries(nodeSources));

/** The sources of an ID, or BAD_USER_INPUT when its type is not one `node` serves. */
export function sourcesOf(id: GlobalId): readonly NodeSource[] {
  const sources = sourcesByType.get(id.typeName);
  if (sources === undefined) {
    throw new GatewayError(ErrorCode.BadUserInput, `Not a sports-graph global ID: ${id.typeName} is not a Node type.`);
  }
  return sources(id);
}

/**
 * The listing that holds the entity, when it is fresh in the cache and does
 * hold it: read through the operation's loader, so this costs nothing.
 */
export async function freshListingHit(
  ctx: LoaderPort & UpstreamCachePort,
  sources: readonly NodeSource[],
): Promise<object | undefined> {
  for (const candidate of sources.slice(0, -1)) {
    // A listing is read whole from the cache; one that only names another resource is no listing.
    if (candidate.follow !== undefined) continue;
    if (!ctx.upstreamCache.isCached(candidate.route, candidate.params as never)) continue;
    try {
      const hit = candidate.pick(await ctx.upstream.load(candidate.route, candidate.params as never));
      if (hit !== undefined) return hit;
    } catch {
      // A listing that failed anyway is only a missed shortcut: the last source decides.
    }
  }
  return undefined;
}

/** `node(id:)`: the entity again, from the cheapest source that holds it. */
export async function locateNode(ctx: LoaderPort & UpstreamCachePort, id: GlobalId): Promise<object> {
  const sources = sourcesOf(id);
  const hit = await freshListingHit(ctx, sources);
  if (hit !== undefined) return hit;
  let last = sources[sources.length - 1];
  if (last === undefined) throw new GatewayError(ErrorCode.NotSupported, `${id.typeName} has no upstream route.`);
  let entity: object | undefined;
  for (;;) {
    const payload = await ctx.upstream.load(last.route, last.params as never);
    if (last.follow === undefined) {
      entity = last.pick(payload);
      break;
    }
    const next = last.follow(payload);
    if (next === undefined) break;
    last = next;
  }
  if (entity === undefined) {
    throw new GatewayError(ErrorCode.NotFound, `No ${id.typeName} with this ID in ${last.route.template}.`, {
      version: last.route.version,
      route: last.route.template,
    });
  }
  return entity;
}
