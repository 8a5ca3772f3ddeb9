/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP (the official
 * SDK's transport), stateless: every POST is answered on its own by a fresh
 * server, with no session to find, so any replica of a cluster serves any
 * request. GET (a server-initiated stream) and DELETE (ending a session)
 * have nothing to do without sessions: 405.
 *
 * In front of the SDK, the doors of /graphql that yoga would otherwise hold:
 * CORS by /graphql's own rules (`corsAnswer` of src/plugins/use-cors.ts: a
 * preflight of an allowed origin is answered 204, of any other 403
 * `ORIGIN_NOT_ALLOWED`; an allowed origin's answers name it), the MCP
 * spec's DNS-rebinding guard (a browser `Origin` the host policy would
 * refuse for a WebSocket is refused with 403 `ORIGIN_NOT_ALLOWED`; the
 * front door has checked `Host` already) and the client key (401/403 as on
 * /graphql), so even the free tools need one when keys are configured.
 * Tools that run GraphQL run it through /graphql's yoga (graphql-runner.ts).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Logger } from 'pino';
import type { HostPolicy } from '../../access/allowed-hosts.js';
import { presentedKey, type ClientKeys } from '../../access/client-keys.js';
import { Code } from '../../codes/error-codes.js';
import { CORS_MAX_AGE_SECONDS, corsAnswer, type CorsRules } from '../../plugins/use-cors.js';
import { bufferedBody } from '../http/body-limit.js';
import { writeRefusal, type Refusal } from '../http/refusal.js';
import { graphqlRunner, type FetchesGraphql } from './graphql-runner.js';
import { mcpServer, type McpCatalogue, type McpToolDeps } from './mcp-tools.js';
import { curate } from './curated-tools.js';
import { trustedOperations } from './trusted-tools.js';
import type { TrustedManifest } from '../../config/trusted-manifest.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { loadExampleOperations, type ExampleOperation } from '../../graphiql/example-operations.js';

export const MCP_PATH = '/mcp';

export const mcpOriginNotAllowed: Refusal = {
  status: 403,
  code: Code.ORIGIN_NOT_ALLOWED,
  message: 'Pages of this origin may not call the MCP endpoint.',
};

export interface McpEndpointOptions {
  readonly hostPolicy: HostPolicy;
  readonly clientKeys: ClientKeys;
  readonly yoga: FetchesGraphql;
  readonly tools: McpToolDeps;
  readonly logger: Logger;
  /** `TRUSTED_DOCUMENTS_FILE`: its operations are tools, and only the examples it holds (the rest could not run). @default none */
  readonly trusted?: TrustedManifest | undefined;
  /** The example operations offered as resources. @default loadExampleOperations (examples/operations/) */
  readonly exampleOperations?: () => Promise<readonly ExampleOperation[]>;
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * The client the request's key names (undefined without client keys), or
 * false once a caller without a valid key is refused, as /graphql's access stage refuses it.
 */
function callerOf(keys: ClientKeys, req: IncomingMessage, res: ServerResponse): { client: string | undefined } | false {
  if (!keys.enabled) return { client: undefined };
  const result = keys.check(presentedKey((name) => header(req, name)));
  if (result.ok) return { client: result.client };
  const message = result.status === 401 ? 'A gateway client key is required.' : 'This client key is not valid.';
  const code = result.status === 401 ? Code.UNAUTHENTICATED : Code.FORBIDDEN;
  writeJson(
    res,
    result.status,
    { errors: [{ message, extensions: { code } }] },
    result.status === 401 ? { 'www-authenticate': 'Bearer' } : {},
  );
  return false;
}

export function mcpEndpoint({
  hostPolicy,
  clientKeys,
  yoga,
  tools,
  logger,
  trusted,
  exampleOperations = loadExampleOperations,
}: McpEndpointOptions): RequestListener {
  // Read on the first MCP request, once: the files do not change while the gateway runs.
  let loaded: Promise<McpCatalogue> | undefined;
  const catalogue = (): Promise<McpCatalogue> => {
    loaded ??= exampleOperations()
      .then(async (examples) => ({
        examples,
        curated: await curate(
          tools,
          trusted === undefined ? examples : examples.filter((example) => trusted.texts.has(example.document)),
        ),
        trusted: trusted === undefined ? [] : await trustedOperations(tools, trusted),
      }))
      .catch((error: unknown) => {
        // Not kept: the next request tries again.
        loaded = undefined;
        throw error;
      });
    return loaded;
  };
  // Pages POST only: GET and DELETE answer 405 (stateless).
  const corsRules: CorsRules = { policy: hostPolicy, methods: ['POST'], maxAgeSeconds: CORS_MAX_AGE_SECONDS };
  return (req, res) => {
    const cors = corsAnswer(
      {
        method: req.method ?? '',
        origin: header(req, 'origin') ?? null,
        requestMethod: header(req, 'access-control-request-method') ?? null,
        requestHeaders: header(req, 'access-control-request-headers') ?? null,
      },
      corsRules,
    );
    // A preflight carries no client key: it is answered before the key is asked for.
    if (cors.kind === 'preflight') {
      req.resume();
      res.writeHead(204, cors.headers);
      res.end();
      return;
    }
    if (cors.kind === 'refused') {
      req.resume();
      writeRefusal(req, res, { ...mcpOriginNotAllowed, message: cors.message });
      return;
    }
    if (cors.kind === 'allowed') {
      res.setHeader('access-control-allow-origin', cors.origin);
      res.setHeader('vary', 'Origin');
    }
    if (!hostPolicy.allowsOrigin(header(req, 'origin'), req.headers.host)) {
      req.resume();
      writeRefusal(req, res, mcpOriginNotAllowed);
      return;
    }
    const caller = callerOf(clientKeys, req, res);
    if (caller === false) return;
    if (req.method !== 'POST') {
      writeJson(
        res,
        405,
        {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless (POST only).' },
          id: null,
        },
        { allow: 'POST' },
      );
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(bufferedBody(req)?.toString('utf8') ?? '');
    } catch {
      // As the SDK answers a body it cannot parse: a JSON-RPC parse error.
      writeJson(res, 400, {
        jsonrpc: '2.0',
        error: { code: -32700, message: 'Parse error: the body is not JSON.' },
        id: null,
      });
      return;
    }
    const server = async () =>
      mcpServer(tools, { client: caller.client, run: graphqlRunner(yoga, req.headers) }, await catalogue());
    answer(req, res, body, server).catch((error: unknown) => {
      logger.error({ err: error, method: req.method, path: MCP_PATH }, 'an MCP request failed');
      if (!res.headersSent)
        writeJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
      else res.destroy();
    });
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  made: () => Promise<McpServer>,
): Promise<void> {
  const server = await made();
  // No session id: stateless. JSON answers rather than an SSE stream: every tool answers once.
  const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
