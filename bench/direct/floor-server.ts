/**
 * The warm path's floor (issue 34): a bare `node:http` server that answers
 * every request with the same pre-serialized bytes, the gateway's own
 * answer to the representative query, read once at start. Per request it
 * reads the request body (the load POSTs the same operation as to the
 * gateway) and writes those bytes: what any Node server must spend to
 * answer over HTTP/1.1, with no lookup, no JSON and no GraphQL.
 *
 * Started by the bench (bench/stack.ts, `startFloor`) on the gateway's
 * core, beside the gateway, in the same run.
 *
 * Env: `BENCH_FLOOR_BODY_FILE` (the bytes), `BENCH_FLOOR_CONTENT_TYPE`, `PORT`.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env['BENCH_FLOOR_BODY_FILE'] ?? '');
const headers = {
  'content-type': process.env['BENCH_FLOOR_CONTENT_TYPE'] ?? 'application/json',
  'content-length': String(body.length),
};

const server = createServer((req, res) => {
  if (req.url === '/healthz') {
    res.writeHead(200).end('{"status":"ok"}');
    return;
  }
  req.on('data', () => {});
  req.once('end', () => {
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.listen(Number(process.env['PORT'] ?? '0'), '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    process.exit(0);
  });
}
