/**
 * The engine's floor (issue 34): the gateway's operation executed by
 * graphql-jit alone behind a bare `node:http` server, in the engine
 * gateway's own process, over the same schema, resolvers and upstream
 * cache (so over the same cached payloads). No yoga, no plugins: no cost
 * estimate, no spend gate, no result cache, no tracing, no metrics, no
 * timeouts. What the gateway spends per executed operation above this is
 * what its pipeline costs.
 *
 * Per request: read the body, `JSON.parse` it, find the compiled query by
 * its text (parsed, validated and compiled once), run it on a fresh
 * operation context (the gateway's own factory: a loader per operation),
 * `JSON.stringify` the result and write it. The bench's engine scenario
 * (bench/scenarios/engine.ts) checks that its `data` is the gateway's.
 *
 * Only the bench's gateway entry (bench/gateway-main.ts) starts it, when
 * `BENCH_ENGINE_FLOOR_PORT` names a port; it listens on loopback only.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { parse, validate } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { GatewayExecutable } from '../src/gateway.js';

interface OperationBody {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
  readonly operationName?: string;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    req.once('error', reject);
  });
}

export function startEngineFloor(executable: GatewayExecutable, port: number): void {
  const compiled = new Map<string, CompiledQuery>();
  const compiledFor = (body: OperationBody): CompiledQuery => {
    const key = `${body.operationName ?? ''}\n${body.query}`;
    let query = compiled.get(key);
    if (query === undefined) {
      const document = parse(body.query);
      const errors = validate(executable.schema, document);
      if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('; '));
      const result = compileQuery(executable.schema, document, body.operationName);
      if (!isCompiledQuery(result)) throw new Error(JSON.stringify(result.errors));
      query = result;
      compiled.set(key, query);
    }
    return query;
  };
  const server = createServer((req, res) => {
    readBody(req)
      .then(async (raw) => {
        const body = JSON.parse(raw.toString('utf8')) as OperationBody;
        const result = await compiledFor(body).query(undefined, executable.context(), body.variables ?? {});
        const text = JSON.stringify(result);
        res.writeHead(200, {
          'content-type': 'application/graphql-response+json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        res.end(text);
      })
      .catch((error: unknown) => {
        res.writeHead(500).end(String(error));
      });
  });
  server.listen(port, '127.0.0.1');
}
