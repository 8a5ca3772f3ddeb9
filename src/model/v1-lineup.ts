/**
 * Spec 2.6: the coach hides inside a V1 lineup's `members[]`, as its last
 * entry, marked `formation.name` Coach, `status` 4, `statusText` Management,
 * with an athlete ID and no name. The gateway splits it out once here, so
 * no client counts the coach as a player.
 */
import type { V1LineupMember, V1LineupTeam } from '../upstream/routes/v1-world-cup.js';

export const isCoachMarker = (member: V1LineupMember): boolean =>
  member.formation?.name === 'Coach' && member.status === 4 && member.statusText === 'Management';

export interface SplitLineup {
  players: V1LineupMember[];
  coach: V1LineupMember | null;
}

/** The coach is the last member carrying the marker; every other member is a player. */
export function splitLineup(team: V1LineupTeam): SplitLineup {
  const last = team.members.at(-1);
  if (last !== undefined && isCoachMarker(last)) return { players: team.members.slice(0, -1), coach: last };
  // Not where the spec puts it: still never count a marked member as a player.
  const coach = [...team.members].reverse().find(isCoachMarker) ?? null;
  return { players: team.members.filter((member) => !isCoachMarker(member)), coach };
}
