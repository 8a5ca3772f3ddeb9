/**
 * The hand-written REST client of the baselines: the representative query's
 * upstream calls, all in parallel, on one keep-alive undici Pool, paths
 * written out by hand (no route table, no pipeline, no quota ledger).
 */
import { Pool } from 'undici';
import type { V1LinesPayload, V1NewsPayload, V1StandingsPayload } from '../../src/upstream/routes/v1.js';
import type { V1WorldCupStandingsPayload } from '../../src/upstream/routes/v1-world-cup.js';
import type { V2TeamPayload, V2TournamentPayload } from '../../src/upstream/routes/v2.js';
import type { RepresentativePayloads } from './shape.js';

export interface RepresentativeIds {
  readonly game: string;
  readonly team: string;
  readonly tournament: string;
}

export class DirectRest {
  readonly #pool: Pool;
  readonly #headers: Record<string, string>;

  constructor(baseUrl: string, apiKey: string) {
    this.#pool = new Pool(baseUrl, { connections: 16 });
    this.#headers = { 'x-api-key': apiKey, accept: 'application/json' };
  }

  async get<T>(path: string): Promise<T> {
    const response = await this.#pool.request({ method: 'GET', path, headers: this.#headers });
    const body = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${body.slice(0, 200)}`);
    return JSON.parse(body) as T;
  }

  /** The V2 slug of ice hockey, from the free `/reference/sports` (read once, like the gateway's day-long cache). */
  async hockeyV2Slug(): Promise<string> {
    const catalogue = await this.get<{ sports: Array<{ sport: string; slugs: { v2?: string | null } }> }>(
      '/reference/sports',
    );
    const slug = catalogue.sports.find((entry) => entry.sport.toUpperCase() === 'ICE_HOCKEY')?.slugs.v2;
    if (slug == null) throw new Error('no V2 slug for ice hockey');
    return slug;
  }

  /** The six data calls of the representative query, in parallel. */
  async representative(ids: RepresentativeIds, v2Slug: string): Promise<RepresentativePayloads> {
    const [standings, news, lines, worldCupStandings, team, tournament] = await Promise.all([
      this.get<V1StandingsPayload>('/v1/hockey/standings?competitions=11&seasonNum=2025'),
      this.get<V1NewsPayload>('/v1/hockey/news?competitionId=303&limit=10'),
      this.get<V1LinesPayload>(`/v1/hockey/bets/lines?gameId=${ids.game}`),
      this.get<V1WorldCupStandingsPayload>('/api/v1/world-cup/standings'),
      this.get<V2TeamPayload>(`/v2/${v2Slug}/api/teams/${ids.team}`),
      this.get<V2TournamentPayload>(`/v2/${v2Slug}/api/tournaments/${ids.tournament}`),
    ]);
    return { standings, news, lines, worldCupStandings, team, tournament, v2Slug };
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
