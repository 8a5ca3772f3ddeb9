/**
 * degraded-fields.ts leaves the fields in STRICT_PARTS without a resolver
 * although their names are droppable elsewhere: that is right only while
 * every payload their parent values come from holds the part strictly. For
 * each route listed there, a payload whose part is malformed is refused
 * whole (or loses an enclosing optional part), never kept with the part
 * dropped, which would answer a silent null instead of the coded error.
 */
import { describe, expect, it } from 'vitest';
import { checkPayload } from '../upstream/payload-check.js';
import { v1Routes } from '../upstream/routes/v1.js';
import { v1WorldCupRoutes } from '../upstream/routes/v1-world-cup.js';
import { STRICT_PARTS } from './degraded-fields.js';

const hockeyEntry = (competitor: unknown, position: unknown) => ({
  competitor,
  position,
  points: 10,
  played: 5,
  wins: 3,
  losses: 2,
});
const hockeyStandings = (competitor: unknown, position: unknown) => ({
  standings: [hockeyEntry({ id: 1, name: 'A' }, 1), hockeyEntry(competitor, position)],
});
const row = (position: unknown) => ({
  position,
  competitor: { id: 7, name: 'B' },
  played: 3,
  wins: 1,
  draws: 1,
  losses: 1,
  goalsFor: 2,
  goalsAgainst: 2,
  points: 4,
});
const groups = (position: unknown) => [{ groupNum: 1, name: 'Group A', rows: [row(1), row(position)] }];

interface Case {
  readonly name: string;
  readonly accepts: (body: unknown) => boolean;
  readonly good: unknown;
  readonly bad: unknown;
  /** Undefined: the bad payload is refused; otherwise the only drop, an enclosing optional part. */
  readonly dropped?: ReadonlyArray<string | number>;
}

const cases: Readonly<Record<string, readonly Case[]>> = {
  'V1HockeyStandingsEntry.position': [
    {
      name: 'v1 hockey standings',
      accepts: v1Routes.standings.accepts,
      good: hockeyStandings({ id: 2, name: 'B' }, 2),
      bad: hockeyStandings({ id: 2, name: 'B' }, 'second'),
    },
  ],
  'V1HockeyCompetitor.name': [
    {
      name: 'v1 hockey standings',
      accepts: v1Routes.standings.accepts,
      good: hockeyStandings({ id: 2, name: 'B' }, 2),
      bad: hockeyStandings({ id: 2, name: 42 }, 2),
    },
  ],
  'V1WorldCupStandingsRow.position': [
    {
      name: 'world cup standings',
      accepts: v1WorldCupRoutes.standings.accepts,
      good: { standings: groups(2) },
      bad: { standings: groups('2nd') },
    },
    {
      name: 'competition standings',
      accepts: v1WorldCupRoutes.competitionStandings.accepts,
      good: { standings: groups(2) },
      bad: { standings: groups(null) },
    },
    {
      name: 'world cup hub',
      accepts: v1WorldCupRoutes.hub.accepts,
      good: { standings: groups(2) },
      bad: { standings: groups('2nd') },
      dropped: ['standings'],
    },
  ],
};

describe('strict parts left without a resolver', () => {
  it('every entry of STRICT_PARTS has its routes here', () => {
    expect(new Set(Object.keys(cases))).toEqual(STRICT_PARTS);
  });

  for (const [coordinate, list] of Object.entries(cases)) {
    for (const { name, accepts, good, bad, dropped } of list) {
      it(`${coordinate}: ${name} refuses the part malformed rather than dropping it`, () => {
        const guard = (body: unknown): body is unknown => accepts(body);
        expect(checkPayload(guard, good)?.dropped).toEqual([]);
        const checked = checkPayload(guard, bad);
        if (dropped === undefined) expect(checked).toBeUndefined();
        else expect(checked?.dropped).toEqual([dropped]);
      });
    }
  }
});
