/**
 * A V2 event as the schema's `V2Event` reads it: the payload and the V2 slug
 * it was fetched under (V2 IDs are per sport). Every domain that returns V2
 * events (team results, umpire games, season fixtures, live feeds) wraps them
 * with `v2EventModel` so that one `V2Event` type, and one `Event` fragment,
 * reads them all.
 */
import type { V2EventsPage } from '../upstream/routes/v2-events.js';
import type { V2Event, V2Ref, V2Team } from '../upstream/routes/v2.js';
import { pagedConnection, type Connection, type Edge } from './paged-connection.js';
import { tagType } from './typename.js';
import type { V2TeamModel, WithSlug } from './v2-entities.js';

export type V2EventModel = WithSlug<V2Event>;

export function v2EventModel(slug: string, event: V2Event): V2EventModel {
  return tagType({ slug, value: event }, 'V2Event');
}

/** Event payloads name teams by ID and name only: enough for a `V2Team`, whose other fields are optional. */
export function v2TeamFromRef(slug: string, team: V2Ref & { shortName?: string }): V2TeamModel {
  const value: V2Team = { id: team.id, name: team.name, sport: { slug, name: slug } };
  if (team.shortName !== undefined) value.shortName = team.shortName;
  if (team.slug !== undefined) value.slug = team.slug;
  return tagType({ slug, value }, 'V2Team');
}

/** V2 `status.type` values (assumption, SofaScore-style): `inprogress`, `finished`, `notstarted`. */
export const isFinished = (event: V2Event): boolean => event.status.type === 'finished';
export const isLive = (event: V2Event): boolean => event.status.type === 'inprogress';

export type V2EventConnectionModel = Connection<V2EventModel>;
export type V2EventEdgeModel = Edge<V2EventModel>;

/** A connection over a V2 paged event route, each event wrapped for `V2Event`. */
export function v2EventConnection(
  slug: string,
  loadPage: (page: number) => Promise<V2EventsPage>,
  args: { first?: number | null | undefined; after?: string | null | undefined },
): Promise<V2EventConnectionModel> {
  return pagedConnection(async (page) => {
    const payload = await loadPage(page);
    return { items: payload.events.map((event) => v2EventModel(slug, event)), hasNextPage: payload.hasNextPage };
  }, args);
}
