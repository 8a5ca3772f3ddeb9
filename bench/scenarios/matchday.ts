/**
 * One World Cup matchday on the sandbox, on simulated time (issue 33, item
 * 4): what the freshness policy (src/upstream/match-freshness.ts) spends
 * against the route-class TTLs it replaced, on the same workload.
 *
 * The day is scripted from the sandbox's own calendar (its fixture list,
 * read once before counting starts), from `T0`, an hour after the last game
 * in progress kicked off:
 *
 * - the games in progress at `T0` end 10, 25 and 55 minutes in;
 * - the first game still to come is postponed: never kicked off, so the
 *   gateway takes it as postponed once `overdue` past its kick-off time (the
 *   sandbox's V1 data has no postponed status; `statusGroup` stays 2);
 * - every later game that starts within the day kicks off at its time
 *   (`POST /__sandbox/matches/{id}/events`), goes in at half-time, comes
 *   back out, has a goal each side and ends 112 minutes in; so each passes
 *   through scheduled far ahead, scheduled soon, in play and ended;
 * - games past the day stay far ahead; the earlier matchday's are ended.
 *
 * The workload (`WIDGETS`) stands for many clients: a widget read every N
 * seconds is a page some client reads at least that often. Widgets read in
 * a fixed order at each instant, one operation at a time, so every run of
 * the same day makes the same requests.
 *
 * Time: the gateway's cache clock and the sandbox's clock are set together
 * (`MatchdayTarget.setClock`) before each instant's operations; nothing
 * sleeps. The sandbox's games move only by script (its match clock stands
 * still), so the data at each instant is the same in every run.
 *
 * Measured: upstream requests, exact, from the sandbox's counters; the age
 * of every upstream answer used by an answer about a game in play (its
 * widgets, and the fixture list while a game is in play), from
 * `extensions.resources` (the result cache must be off, since a stored
 * result reports no per-resource ages).
 */
import { Agent, request } from 'node:http';
import { upstreamAssumptions } from '../../src/upstream/assumptions.js';
import { percentile } from '../stats.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The instants of the day: every widget's period and offset is a multiple of it. */
const STEP_MS = 5_000;
/** Minutes from `T0` at which the games in progress at `T0` end, in kick-off order. */
const RUNNING_GAMES_END_MIN = [10, 25, 55];
/** A kicked-off game's script, minutes from its kick-off (`period` is the next period: half-time, second half). */
const GAME_SCRIPT: ReadonlyArray<{ readonly atMin: number; readonly event: Record<string, string> }> = [
  { atMin: 0, event: { type: 'period' } },
  { atMin: 20, event: { type: 'goal', team: 'home' } },
  { atMin: 47, event: { type: 'period' } },
  { atMin: 62, event: { type: 'period' } },
  { atMin: 71, event: { type: 'goal', team: 'away' } },
  { atMin: 112, event: { type: 'end' } },
];
/** Before kick-off, lineups and team news are read from this long ahead (spec 4.9's lineup window). */
const PRE_MATCH_MS = 3 * HOUR;
/** Clients keep checking a postponed game until this long after its kick-off time. */
const POSTPONED_WATCH_MS = 8 * HOUR;

export const LIST =
  '{ v1 { worldCup { matches { ref { nativeId } statusGroup minute homeScore awayScore startTime } } } }';
export const STANDINGS = '{ v1 { worldCup { standings { groupNum rows { position points played } } } } }';
export const SCOREBOARD =
  'query ($id: ID!) { v1 { worldCup { game(id: $id) { match { statusGroup minute homeScore awayScore } events { minute type } commentary { minute text } } } } }';
export const STATS =
  'query ($id: ID!) { v1 { worldCup { gameDetail(id: $id) { match { statusGroup homeScore awayScore } venue { name attendance } } } } }';
export const LINEUPS =
  'query ($id: ID!) { v1 { worldCup { lineups(gameId: $id) { teamId formation players { name starting } } } } }';

/** How the bench reaches one gateway and its sandbox. */
export interface MatchdayTarget {
  readonly gatewayUrl: string;
  readonly sandboxUrl: string;
  /** The sandbox's API key: the calendar is read from it directly, before counting starts. */
  readonly sandboxApiKey: string;
  /** Sets the gateway's cache clock and the sandbox's clock to `nowMs`; resolves once both are set. */
  setClock(nowMs: number): Promise<void>;
}

export interface MatchdayOptions {
  /** Length of the simulated day. @default 24 */
  readonly hours?: number;
}

type Phase = 'scheduled' | 'inPlay' | 'ended';

interface PlannedGame {
  readonly id: string;
  readonly startsAt: number;
  /** When it kicks off; undefined when it is in progress at `T0` or never kicks off. */
  readonly kicksOffAt: number | undefined;
  /** When it ends; undefined when it does not end within the day. */
  readonly endsAt: number | undefined;
  readonly phaseAtStart: Phase;
  readonly postponed: boolean;
}

export interface MatchdayPlan {
  readonly t0: number;
  readonly endMs: number;
  readonly games: readonly PlannedGame[];
  readonly script: ReadonlyArray<{ readonly at: number; readonly id: string; readonly event: Record<string, string> }>;
}

interface Read {
  readonly widget: string;
  readonly query: string;
  readonly id?: string;
  /** An answer about a game in play: its age counts in the live figures. */
  readonly live: boolean;
}

interface Widget {
  readonly name: string;
  readonly everyMs: number;
  readonly offsetMs: number;
  reads(t: number, day: DayView): Read[];
}

/** The state of the day at one instant, as the script made it (the sandbox's truth). */
class DayView {
  readonly #plan: MatchdayPlan;
  constructor(plan: MatchdayPlan) {
    this.#plan = plan;
  }

  phase(game: PlannedGame, t: number): Phase {
    if (game.endsAt !== undefined && t >= game.endsAt) return 'ended';
    if (game.phaseAtStart !== 'scheduled') return game.phaseAtStart;
    return game.kicksOffAt !== undefined && t >= game.kicksOffAt ? 'inPlay' : 'scheduled';
  }

  inPlay(t: number): PlannedGame[] {
    return this.#plan.games.filter((game) => this.phase(game, t) === 'inPlay');
  }

  ended(t: number): PlannedGame[] {
    return this.#plan.games.filter((game) => this.phase(game, t) === 'ended');
  }

  /** Games whose page fans read before kick-off: within the pre-match window, or postponed and still watched. */
  preMatch(t: number): PlannedGame[] {
    return this.#plan.games.filter((game) => {
      if (this.phase(game, t) !== 'scheduled' || t < game.startsAt - PRE_MATCH_MS) return false;
      return game.postponed ? t < game.startsAt + POSTPONED_WATCH_MS : true;
    });
  }

  farAhead(t: number): PlannedGame[] {
    return this.#plan.games.filter((game) => this.phase(game, t) === 'scheduled' && game.startsAt - t > PRE_MATCH_MS);
  }
}

/** The one of `games` a view at `t` reads: each in turn, one per `everyMs`; none when there are none. */
const roundRobin = (games: readonly PlannedGame[], t: number, everyMs: number): PlannedGame[] => {
  if (games.length === 0) return [];
  return [games[Math.floor(t / everyMs) % games.length]!];
};

/** The workload: what a matchday's pages read, and how often. */
export const WIDGETS: readonly Widget[] = [
  {
    // The tournament's front page: the most read answer of the day.
    name: 'fixtures',
    everyMs: 15_000,
    offsetMs: 0,
    reads: (t, day) => [{ widget: 'fixtures', query: LIST, live: day.inPlay(t).length > 0 }],
  },
  {
    name: 'standings',
    everyMs: 60_000,
    offsetMs: 5_000,
    reads: () => [{ widget: 'standings', query: STANDINGS, live: false }],
  },
  {
    // A live game's scoreboard, events and commentary.
    name: 'liveScoreboard',
    everyMs: 10_000,
    offsetMs: 0,
    reads: (t, day) =>
      day.inPlay(t).map((game) => ({ widget: 'liveScoreboard', query: SCOREBOARD, id: game.id, live: true })),
  },
  {
    name: 'liveStats',
    everyMs: 30_000,
    offsetMs: 5_000,
    reads: (t, day) => day.inPlay(t).map((game) => ({ widget: 'liveStats', query: STATS, id: game.id, live: true })),
  },
  {
    name: 'liveLineups',
    everyMs: 60_000,
    offsetMs: 10_000,
    reads: (t, day) =>
      day.inPlay(t).map((game) => ({ widget: 'liveLineups', query: LINEUPS, id: game.id, live: true })),
  },
  {
    // A game's page before its first whistle: lineups as they are confirmed, team news.
    name: 'preMatch',
    everyMs: 30_000,
    offsetMs: 15_000,
    reads: (t, day) =>
      day.preMatch(t).flatMap((game) => [
        { widget: 'preMatch', query: LINEUPS, id: game.id, live: false },
        { widget: 'preMatch', query: STATS, id: game.id, live: false },
      ]),
  },
  {
    // Finished games' statistics pages: one page view every 30 s, over every ended game in turn.
    name: 'finished',
    everyMs: 30_000,
    offsetMs: 20_000,
    reads: (t, day) =>
      roundRobin(day.ended(t), t, 30_000).flatMap((game) => [
        { widget: 'finished', query: SCOREBOARD, id: game.id, live: false },
        { widget: 'finished', query: STATS, id: game.id, live: false },
      ]),
  },
  {
    // Previews of games days ahead: one page view a minute, over them in turn.
    name: 'previews',
    everyMs: 60_000,
    offsetMs: 25_000,
    reads: (t, day) =>
      roundRobin(day.farAhead(t), t, 60_000).map((game) => ({
        widget: 'previews',
        query: SCOREBOARD,
        id: game.id,
        live: false,
      })),
  },
];

interface ListedGame {
  readonly id: number;
  readonly statusGroup: number;
  readonly startTime: string;
  readonly homeCompetitor?: { readonly placeholder?: boolean };
  readonly awayCompetitor?: { readonly placeholder?: boolean };
}

/** The day's script, from the sandbox's fixture list (read directly: not through the gateway, not counted in the run). */
export async function planMatchday(target: MatchdayTarget, options: MatchdayOptions = {}): Promise<MatchdayPlan> {
  const response = await fetch(`${target.sandboxUrl}/api/v1/world-cup/matches`, {
    headers: { [upstreamAssumptions.apiKeyHeader]: target.sandboxApiKey },
  });
  if (!response.ok) throw new Error(`matchday: the sandbox's fixture list answered ${response.status}`);
  const listed = ((await response.json()) as { matches: ListedGame[] }).matches
    .map((game) => ({ ...game, startsAt: Date.parse(game.startTime) }))
    .sort((a, b) => a.startsAt - b.startsAt || a.id - b.id);
  const running = listed.filter((game) => game.statusGroup === 3);
  if (running.length === 0) throw new Error('matchday: the sandbox shows no game in progress');
  const t0 = Math.max(...running.map((game) => game.startsAt)) + HOUR;
  const endMs = t0 + (options.hours ?? 24) * HOUR;
  const known = (game: ListedGame): boolean =>
    game.homeCompetitor?.placeholder !== true && game.awayCompetitor?.placeholder !== true;
  const toCome = listed.filter((game) => game.statusGroup === 2 && game.startsAt > t0 && known(game));
  const postponedId = toCome[0]?.id;

  const games: PlannedGame[] = [];
  const script: Array<MatchdayPlan['script'][number]> = [];
  for (const game of listed) {
    const id = String(game.id);
    if (game.statusGroup === 4) {
      games.push({
        id,
        startsAt: game.startsAt,
        kicksOffAt: undefined,
        endsAt: undefined,
        phaseAtStart: 'ended',
        postponed: false,
      });
    } else if (game.statusGroup === 3) {
      const endsAt = t0 + (RUNNING_GAMES_END_MIN[running.indexOf(game)] ?? 55) * MINUTE;
      games.push({
        id,
        startsAt: game.startsAt,
        kicksOffAt: undefined,
        endsAt,
        phaseAtStart: 'inPlay',
        postponed: false,
      });
      script.push({ at: endsAt, id, event: { type: 'end' } });
    } else if (known(game) && game.startsAt > t0) {
      const postponed = game.id === postponedId;
      const plays = !postponed && game.startsAt < endMs;
      const last = GAME_SCRIPT[GAME_SCRIPT.length - 1]!;
      const endsAt =
        plays && game.startsAt + last.atMin * MINUTE < endMs ? game.startsAt + last.atMin * MINUTE : undefined;
      games.push({
        id,
        startsAt: game.startsAt,
        kicksOffAt: plays ? game.startsAt : undefined,
        endsAt,
        phaseAtStart: 'scheduled',
        postponed,
      });
      if (plays) {
        for (const step of GAME_SCRIPT) {
          const at = game.startsAt + step.atMin * MINUTE;
          if (at < endMs) script.push({ at, id, event: step.event });
        }
      }
    }
  }
  script.sort((a, b) => a.at - b.at);
  return { t0, endMs, games, script };
}

export interface AgeFigures {
  /** Answers about a game in play. */
  readonly answers: number;
  /** Upstream answers they used (each counted resource of each answer). */
  readonly resources: number;
  readonly p50Seconds: number;
  readonly p95Seconds: number;
  readonly maxSeconds: number;
}

export interface MatchdayRun {
  readonly operations: number;
  /** Upstream requests, exact, from the sandbox's counters. */
  readonly upstreamRequests: number;
  /** The same, by route template (IDs folded). */
  readonly upstreamByRoute: Record<string, number>;
  /** Upstream answers each widget's operations caused (from `extensions.resources`, source `upstream`). */
  readonly upstreamByWidget: Record<string, number>;
  readonly operationsByWidget: Record<string, number>;
  readonly liveAge: AgeFigures;
  /** Script events applied (kick-offs, goals, periods, full times). */
  readonly scriptEvents: number;
  readonly wallMs: number;
}

interface Resource {
  readonly route: string;
  readonly source: string;
  readonly ageSeconds: number;
}

/** Runs the day on one fresh gateway and sandbox; the same plan gives the same requests. */
export async function runMatchday(target: MatchdayTarget, plan: MatchdayPlan): Promise<MatchdayRun> {
  const started = Date.now();
  const day = new DayView(plan);
  const operationsByWidget: Record<string, number> = {};
  const upstreamByWidget: Record<string, number> = {};
  const ages: number[] = [];
  let liveAnswers = 0;
  let operations = 0;
  let next = 0;
  const client = graphqlClient(target.gatewayUrl);
  await fetch(`${target.sandboxUrl}/__sandbox/requests/reset`, { method: 'POST' });
  try {
    for (let t = plan.t0; t < plan.endMs; t += STEP_MS) {
      const events = [];
      while (next < plan.script.length && plan.script[next]!.at <= t) events.push(plan.script[next++]!);
      const since = t - plan.t0;
      const reads = WIDGETS.filter((widget) => since % widget.everyMs === widget.offsetMs % widget.everyMs).flatMap(
        (widget) => widget.reads(t, day),
      );
      if (events.length === 0 && reads.length === 0) continue;
      await target.setClock(t);
      for (const { id, event } of events) await scriptEvent(target.sandboxUrl, id, event);
      for (const read of reads) {
        const resources = await answer(client, read);
        operations += 1;
        operationsByWidget[read.widget] = (operationsByWidget[read.widget] ?? 0) + 1;
        const fetched = resources.filter((resource) => resource.source === 'upstream').length;
        upstreamByWidget[read.widget] = (upstreamByWidget[read.widget] ?? 0) + fetched;
        if (read.live) {
          liveAnswers += 1;
          ages.push(...resources.map((resource) => resource.ageSeconds));
        }
      }
    }
  } finally {
    client.close();
  }
  const counts = (await (await fetch(`${target.sandboxUrl}/__sandbox/requests`)).json()) as {
    total: number;
    byRoute: Record<string, number>;
  };
  return {
    operations,
    upstreamRequests: counts.total,
    upstreamByRoute: foldIds(counts.byRoute),
    upstreamByWidget,
    operationsByWidget,
    liveAge: {
      answers: liveAnswers,
      resources: ages.length,
      p50Seconds: percentile(ages, 50),
      p95Seconds: percentile(ages, 95),
      maxSeconds: ages.length === 0 ? Number.NaN : Math.max(...ages),
    },
    scriptEvents: next,
    wallMs: Date.now() - started,
  };
}

async function scriptEvent(sandboxUrl: string, id: string, event: Record<string, string>): Promise<void> {
  const response = await fetch(`${sandboxUrl}/__sandbox/matches/${id}/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(event),
  });
  if (response.status !== 200) {
    throw new Error(
      `matchday: ${JSON.stringify(event)} on game ${id} answered ${response.status}: ${await response.text()}`,
    );
  }
}

/** One operation; its answer must have no errors. Returns the resources it reports. */
async function answer(client: GraphqlClient, read: Read): Promise<Resource[]> {
  const { status, body } = await client.post({
    query: read.query,
    variables: read.id === undefined ? {} : { id: read.id },
  });
  const parsed = JSON.parse(body) as { errors?: unknown[]; extensions?: { resources?: Resource[] } };
  if (status !== 200 || parsed.errors !== undefined) {
    throw new Error(
      `matchday: ${read.widget} (${read.id ?? 'no id'}) answered ${status}: ${JSON.stringify(parsed.errors)}`,
    );
  }
  const resources = parsed.extensions?.resources;
  if (resources === undefined)
    throw new Error(`matchday: ${read.widget} reported no resources (is the result cache off?)`);
  return resources;
}

interface GraphqlClient {
  post(payload: object): Promise<{ status: number; body: string }>;
  close(): void;
}

/**
 * POSTs to the gateway's `/graphql` over one kept-alive connection: a day is
 * tens of thousands of operations one after another, and node:http's own
 * client costs about half of what fetch does per request here.
 */
function graphqlClient(gatewayUrl: string): GraphqlClient {
  const url = new URL('/graphql', gatewayUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return {
    post: (payload) =>
      new Promise((resolve, reject) => {
        const text = JSON.stringify(payload);
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            agent,
            headers: {
              'content-type': 'application/json',
              accept: 'application/graphql-response+json',
              'content-length': Buffer.byteLength(text),
            },
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(text);
      }),
    close: () => agent.destroy(),
  };
}

/** `GET /api/v1/world-cup/game/4480275` -> `GET /api/v1/world-cup/game/{id}`, summed. */
function foldIds(byRoute: Record<string, number>): Record<string, number> {
  const folded: Record<string, number> = {};
  for (const [route, count] of Object.entries(byRoute)) {
    const template = route.replace(/\/\d+(?=\/|$)/g, '/{id}');
    folded[template] = (folded[template] ?? 0) + count;
  }
  return Object.fromEntries(Object.entries(folded).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Every class TTL pinned at its default (`CACHE_TTL_<CLASS>`): "an explicit
 * class TTL wins" (docs/caching-and-allowance.md), so no answer takes its
 * freshness from its match's state: the route-class TTLs as they were
 * before the policy, through the configuration operators already have.
 */
export function classTtlEnv(defaults: Readonly<Record<string, number>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(defaults).map(([cacheClass, seconds]) => [`CACHE_TTL_${cacheClass.toUpperCase()}`, String(seconds)]),
  );
}

/** Both runs with the operation-result cache off: a stored result reports no per-resource ages. */
export const MATCHDAY_GATEWAY_ENV = { RESULT_CACHE: 'false' } as const;
