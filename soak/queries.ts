/**
 * The steady query mix: one operation per version namespace and the
 * cross-version fields, against sandbox fixtures. `cached` operations ask the
 * same resources every time, so after the first they are answered from the
 * shared cache; `uncached` ones rotate over IDs whose routes the soak gives
 * a 2 s TTL (processes.ts), so a good share of them reaches the upstream.
 * Whether one really did is read from `extensions.cost.upstreamRequests`.
 */
export interface SoakOperation {
  readonly name: string;
  readonly query: string;
  variables(n: number): Record<string, unknown>;
}

const none = (): Record<string, unknown> => ({});

/** 64 hockey V1 games from 410001 (fixtures/hockey-v1.ts). */
const hockeyGame = (n: number): string => String(410_001 + (n % 64));
/** The three V4 football events from 40000001 (fixtures/v4.ts). */
const v4Event = (n: number): string => String(40_000_001 + (n % 3));

export const cachedOperations: readonly SoakOperation[] = [
  {
    name: 'sports+quota',
    query: '{ sports { sport slugs { v1 v2 v3 v4 v6 } } quota { plan limit used remaining } }',
    variables: none,
  },
  {
    name: 'v1 standings',
    query:
      '{ v1 { hockey { standings(competition: 11) { entries { position points competitor { id name ref { version nativeId sport } } } } } } }',
    variables: none,
  },
  {
    name: 'v2 team+tournament',
    query: '{ v2(sport: ICE_HOCKEY) { team(id: "3401") { id name } tournament(id: "234") { id name } } }',
    variables: none,
  },
  { name: 'v3 sports', query: '{ v3 { sports { slug name } } }', variables: none },
  { name: 'v6 stat mapping', query: '{ v6 { football { statMapping { version } } } }', variables: none },
];

export const uncachedOperations: readonly SoakOperation[] = [
  {
    name: 'v1 lines',
    query:
      'query ($g: ID!) { v1 { hockey { lines(gameId: $g) { gameId moneyline { home away draw } totalGoals { line over under } } } } }',
    variables: (n) => ({ g: hockeyGame(n) }),
  },
  {
    name: 'v4 odds',
    query:
      'query ($e: ID!) { v4 { odds(sport: FOOTBALL, eventId: $e) { eventId bookmakers { key markets { key outcomes { name price } } } } } }',
    variables: (n) => ({ e: v4Event(n) }),
  },
  {
    name: 'v3 window',
    query:
      '{ v3 { window(sport: FOOTBALL, window: TODAY) { events { id homeTeam { name } awayTeam { name } homeScore awayScore } } } }',
    variables: none,
  },
];

/** Alternates cached and uncached operations, so the mix stays even at any rate. */
export function operationAt(n: number): SoakOperation {
  const list = n % 2 === 0 ? cachedOperations : uncachedOperations;
  return list[Math.floor(n / 2) % list.length]!;
}
