/**
 * The shared V2 payload pieces (v2.ts interfaces) as shape checks, for the
 * `accepts` of every V2 route that carries them: see shape.ts.
 */
import { arrayOf, epochSeconds, int, num, obj, opt, recordOf, str } from './shape.js';

export const v2Ref = obj({ id: int, name: str, slug: opt(str) });
export const v2Season = obj({ id: int, name: str, year: opt(str) });
export const v2Country = obj({ name: str, alpha2: opt(str) });
export const v2Venue = obj({
  id: int,
  name: str,
  city: opt(str),
  country: opt(str),
  capacity: opt(int),
  coordinates: opt(obj({ latitude: num, longitude: num })),
});
export const v2Manager = obj({ id: int, name: str, shortName: opt(str), nationality: opt(str), team: opt(v2Ref) });
export const v2Team = obj({
  id: int,
  name: str,
  shortName: opt(str),
  slug: opt(str),
  sport: opt(obj({ slug: str, name: opt(str) })),
  country: opt(v2Country),
  manager: opt(v2Manager),
  venue: opt(v2Venue),
  type: opt(str),
});
export const v2Player = obj({
  id: int,
  name: str,
  shortName: opt(str),
  position: opt(str),
  jerseyNumber: opt(str),
  dateOfBirthTimestamp: opt(num),
  country: opt(v2Country),
  team: opt(v2Ref),
});
export const v2UniqueTournament = obj({
  id: int,
  name: str,
  slug: opt(str),
  category: opt(obj({ id: int, name: str, slug: opt(str), sport: opt(obj({ slug: str })) })),
});
const score = opt(
  obj({ current: opt(num), display: opt(num), period1: opt(num), period2: opt(num), period3: opt(num) }),
);
export const v2Event = obj({
  id: int,
  startTimestamp: epochSeconds,
  status: obj({ code: int, type: str, description: opt(str) }),
  homeTeam: v2Ref,
  awayTeam: v2Ref,
  homeScore: score,
  awayScore: score,
  tournament: obj({ id: int, name: str, slug: opt(str), uniqueTournament: opt(v2Ref) }),
  // Events read only the season's ID (`seasonId`): a season without its name is still that season.
  season: opt(obj({ id: int, name: opt(str), year: opt(str) })),
  roundInfo: opt(obj({ round: int, name: opt(str) })),
  venue: opt(v2Ref),
  winnerCode: opt(int),
});
export const v2Events = arrayOf(v2Event);
/** A statistics map (`{ goals: 3 }`), read as `[Statistic!]`. */
export const v2Statistics = recordOf(num);
