/**
 * A second subgraph for the federation tests: fan profiles, which hold
 * sports-graph's entities as another team's subgraph would, by the keys
 * sports-graph offers:
 * - `favouriteTeam: Team` by global ID, through `@interfaceObject` (any
 *   version's team: the ID says which);
 * - `followedAthletes` and `followedTeams` by the upstream's own IDs (the
 *   `ref` key), as a club's own database stores them.
 * It resolves nothing of sports-graph's: the router asks sports-graph.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';

export const FAN_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key", "@shareable", "@interfaceObject"])

  type Query {
    fans: [FanProfile!]!
    fan(id: ID!): FanProfile
  }

  type FanProfile @key(fields: "id") {
    id: ID!
    name: String!
    favouriteTeam: Team
    followedAthletes: [V1HockeyAthlete!]!
    followedTeams: [V2Team!]!
  }

  type Team @key(fields: "id") @interfaceObject {
    id: ID!
  }

  type V1HockeyAthlete @key(fields: "ref { version nativeId sport }", resolvable: false) {
    ref: Ref!
  }

  type V2Team @key(fields: "ref { version nativeId sport }", resolvable: false) {
    ref: Ref!
  }

  type Ref @shareable {
    version: Version!
    nativeId: String!
    sport: String
  }

  enum Version {
    V1
    V2
    V3
    V4
    V6
  }
`;

interface NativeRef {
  readonly version: 'V1' | 'V2';
  readonly nativeId: string;
  readonly sport: string;
}

export interface Fan {
  readonly id: string;
  readonly name: string;
  /** A sports-graph global ID of any Team. */
  readonly favouriteTeamId: string | null;
  readonly followedAthletes: readonly NativeRef[];
  readonly followedTeams: readonly NativeRef[];
}

export interface FanSubgraph {
  readonly url: string;
  close(): Promise<void>;
}

export async function startFanSubgraph(fans: readonly Fan[]): Promise<FanSubgraph> {
  const schema = buildSubgraphSchema([
    {
      typeDefs: parse(FAN_SDL),
      resolvers: {
        Query: {
          fans: () => fans,
          fan: (_: unknown, { id }: { id: string }) => fans.find((fan) => fan.id === id) ?? null,
        },
        FanProfile: {
          favouriteTeam: (fan: Fan) => (fan.favouriteTeamId === null ? null : { id: fan.favouriteTeamId }),
          followedAthletes: (fan: Fan) => fan.followedAthletes.map((ref) => ({ ref })),
          followedTeams: (fan: Fan) => fan.followedTeams.map((ref) => ({ ref })),
        },
      },
    },
  ]);
  const yoga = createYoga({ schema, graphqlEndpoint: '/graphql', logging: false, landingPage: false });
  const server: Server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
