/**
 * A real federation router for the end-to-end test: Hive Gateway's runtime
 * (@graphql-hive/gateway-runtime, from npm) serving a supergraph composed by
 * @theguild/federation-composition from the subgraphs' own `_service { sdl }`,
 * on a free loopback port. Its subgraph transport is @graphql-mesh/transport-http:
 * queries and `_entities` as POSTs, subscriptions as SSE.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { composeServices } from '@theguild/federation-composition';
import { parse } from 'graphql';
import { gqlAt } from './client.js';

export interface SubgraphEndpoint {
  readonly name: string;
  readonly url: string;
  /** Sent by the router on every request to this subgraph (a client key, for instance). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Router {
  /** The router's GraphQL endpoint. */
  readonly url: string;
  readonly supergraphSdl: string;
  close(): Promise<void>;
}

/** Composes the subgraphs as they describe themselves; throws with every composition error. */
export async function composeSupergraph(subgraphs: readonly SubgraphEndpoint[]): Promise<string> {
  const services = [];
  for (const subgraph of subgraphs) {
    const printed = await gqlAt<{ _service: { sdl: string } }>(subgraph.url, '{ _service { sdl } }', undefined, {
      ...subgraph.headers,
    });
    if (printed.data == null) throw new Error(`${subgraph.name}: no SDL (${printed.text})`);
    services.push({ name: subgraph.name, url: subgraph.url, typeDefs: parse(printed.data._service.sdl) });
  }
  const result = composeServices(services);
  if (result.errors !== undefined)
    throw new Error(`composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  return result.supergraphSdl;
}

export async function startRouter(subgraphs: readonly SubgraphEndpoint[]): Promise<Router> {
  const supergraphSdl = await composeSupergraph(subgraphs);
  const gateway = createGatewayRuntime({
    supergraph: supergraphSdl,
    logging: false,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    transportEntries: Object.fromEntries(
      subgraphs
        .filter((s) => s.headers !== undefined)
        .map((s) => [s.name, { headers: Object.entries(s.headers ?? {}) }]),
    ),
  });
  const server: Server = createServer(gateway);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    supergraphSdl,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await gateway.dispose();
    },
  };
}
