/**
 * What the benchmark asks: the representative cross-version query (warm and
 * cold scenarios) and the fixed workload of the upstream scenario. IDs come
 * from the sandbox's own deterministic fixtures (same seed as the sandbox
 * process), so the bench never guesses an ID.
 */
import { buildFixtures } from '../sandbox/fixtures/build.js';
import { aussieRulesIds } from '../sandbox/fixtures/aussie-rules.js';
import { baseballIds } from '../sandbox/fixtures/baseball.js';
import { cyclingIds } from '../sandbox/fixtures/cycling.js';
import { hockeyV1Ids } from '../sandbox/fixtures/hockey-v1.js';
import { hockeyV2Ids } from '../sandbox/fixtures/hockey-v2.js';
import { motorsportIds } from '../sandbox/fixtures/motorsport.js';

export interface Operation {
  readonly name: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

/** The sandbox process's seed (its default). */
export const FIXTURE_SEED = 1;

const fixtures = buildFixtures({ seed: FIXTURE_SEED, baseUrl: 'http://127.0.0.1:0' });
const v6Match =
  [...fixtures.football.v6.statsByMatchId.values()].find((s) => s.match.state === 'finished')?.matchId ?? '';
const v4HockeyEvent = String(fixtures.otherSports.v4.events.get('ice-hockey')?.[0] ?? '');
const v3Match = String([...fixtures.otherSports.v3.matches.keys()][3] ?? '');

/**
 * The warm/cold query: V1 hockey standings with competitor images, news with
 * sources and betting lines, World Cup V1 standings, and V2 team and
 * competition details. Seven upstream resources, all independent of each
 * other (one round trip when nothing is cached).
 */
export const representative: Operation = {
  name: 'representative',
  query: /* GraphQL */ `
    query Representative($game: ID!, $team: ID!, $tournament: ID!) {
      v1 {
        hockey {
          standings(competition: 11, season: 2025) {
            entries { position points played wins losses goalDifference competitor { id name image { url version } } }
          }
          news(competitionId: 303, limit: 10) {
            articles { id title publishedAt url source { nativeId name } }
            sources { nativeId name }
          }
          lines(gameId: $game) { moneyline { home away draw } puckLine { line home away } totalGoals { line over under } }
        }
        worldCup { standings { name rows { position points team { name } } } }
      }
      v2(sport: ICE_HOCKEY) {
        team(id: $team) { id ref { version nativeId sport } name manager { name } venue { name } }
        tournament(id: $tournament) { id name category }
      }
    }
  `,
  variables: {
    game: String(hockeyV1Ids.firstGameId),
    team: String(hockeyV2Ids.firstTeam),
    tournament: String(hockeyV2Ids.uniqueTournament),
  },
};

const op = (name: string, query: string, variables?: Record<string, unknown>): Operation =>
  variables === undefined ? { name, query } : { name, query, variables };

/**
 * The upstream scenario's fixed workload: 24 operations over V1, V2, V3, V4
 * and V6. Several ask for resources an earlier one already needed (that is
 * what a client does), and one asks for a route the spec documents as
 * missing (answered locally, no request).
 */
export const workload: readonly Operation[] = [
  representative,
  op(
    'v1 hockey standings, other fields',
    `{ v1 { hockey { standings(competition: 11, season: 2025) { season entries { position competitor { name } } } } } }`,
  ),
  op(
    'v1 hockey second league',
    `{ v1 { hockey { standings(competition: 12) { entries { position competitor { name } } } } } }`,
  ),
  op(
    'v1 hockey athlete',
    `query($id: ID!) { v1 { hockey { athlete(id: $id) { name position team { name } currentSeason { points } } } } }`,
    { id: String(hockeyV1Ids.firstAthleteId) },
  ),
  op('v1 hockey news again', `{ v1 { hockey { news(competitionId: 303, limit: 10) { articles { title } } } } }`),
  op(
    'v1 world cup matches',
    `{ v1 { worldCup { matches { ref { nativeId } startTime homeTeam { name } homeScore } } } }`,
  ),
  op(
    'v1 world cup live (same resource)',
    `{ v1 { worldCup { matches(live: true) { ref { nativeId } status { live } } } } }`,
  ),
  op(
    'v1 world cup hub',
    `{ v1 { worldCup { hub { matches { ref { nativeId } } standings { name } bracket { round } } } } }`,
  ),
  op(
    'v2 world cup 2026 matches, 2 pages',
    `{ v2(sport: FOOTBALL) { football { worldCup2026 { matches(first: 45) { nodes { id } } } } } }`,
  ),
  op('v2 hockey team', `query($id: ID!) { v2(sport: ICE_HOCKEY) { team(id: $id) { name shortName country } } }`, {
    id: String(hockeyV2Ids.firstTeam),
  }),
  op('v2 hockey tournament', `query($id: ID!) { v2(sport: ICE_HOCKEY) { tournament(id: $id) { name } } }`, {
    id: String(hockeyV2Ids.uniqueTournament),
  }),
  op(
    'v2 aussie rules team',
    `query($id: ID!) { v2(sport: AUSSIE_RULES) { team(id: $id) { name manager { name } venue { capacity } } } }`,
    { id: String(aussieRulesIds.firstTeam) },
  ),
  op(
    'v2 aussie rules coach',
    `query($id: ID!) { v2(sport: AUSSIE_RULES) { aussieRules { coach(id: $id) { name } } } }`,
    { id: String(aussieRulesIds.firstCoach) },
  ),
  op(
    'v2 baseball lineups',
    `query($id: ID!) { v2(sport: BASEBALL) { baseball { lineups(matchId: $id) { confirmed } } } }`,
    { id: String(baseballIds.firstGame) },
  ),
  op('v2 cycling rider', `query($id: ID!) { v2(sport: CYCLING) { cycling { rider(id: $id) { name } } } }`, {
    id: String(cyclingIds.firstRider),
  }),
  op(
    'v2 motorsport stages',
    `query($id: ID!) { v2(sport: MOTORSPORT) { motorsport { seasonStages(seasonId: $id) { name } } } }`,
    { id: String(motorsportIds.season) },
  ),
  op(
    'v2 motorsport constructors',
    `query($id: ID!) { v2(sport: MOTORSPORT) { motorsport { constructorStandings(seasonId: $id) { position } } } }`,
    { id: String(motorsportIds.season) },
  ),
  op(
    'v3 water polo today',
    `{ v3 { window(sport: WATER_POLO, window: TODAY) { slug events { homeTeam { name } } } } }`,
  ),
  op(
    'v3 match and search',
    `query($id: ID!) { v3 { match(id: $id) { league homeTeam { name } } search(query: "Water polo Club A") { name } } }`,
    { id: v3Match },
  ),
  op('v3 cycling', `{ v3 { cycling(window: TODAY) { general { name } } } }`),
  op(
    'v4 hockey odds',
    `query($id: ID!) { v4 { odds(sport: ICE_HOCKEY, eventId: $id) { eventId bookmakers { key } } } }`,
    { id: v4HockeyEvent },
  ),
  op('v6 football stat mapping', `{ v6 { football { statMapping { version } } } }`),
  op(
    'v6 football team stats',
    `query($id: ID!) { v6 { football { teamStats(matchId: $id) { mappingVersion teams { side } } } } }`,
    { id: v6Match },
  ),
  op('sports', `{ sports { sport slugs { v1 v2 v3 v4 v6 } } }`),
];
