/**
 * `GET /graphiql/<name>-<hash>.<ext>`: GraphiQL's files (src/graphiql/assets.ts).
 * A name carries its content's hash, so each answer may be kept for a year
 * without asking again (`immutable`); a new GraphiQL version has new names.
 * The ETag lets a client that revalidates anyway get a 304. Brotli or gzip
 * copies are negotiated here and made once (src/graphiql/encoded.ts); the
 * response compression in front (src/transport/http/compress.ts) leaves an answer
 * that already has a Content-Encoding alone.
 */
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import { refusalBody, type Refusal } from '../transport/http/refusal.js';
import { graphiqlAssets, type GraphiQLAsset } from './assets.js';
import { EncodedCopies, staticEncodingFor } from './encoded.js';

export const GRAPHIQL_ASSET_PREFIX = '/graphiql';

const noSuchFile: Refusal = {
  status: 404,
  code: Code.NOT_FOUND,
  message: 'No such GraphiQL file (an older GraphiQL page? Reload it).',
};

/** True when `If-None-Match` names this file's validator (weak comparison, RFC 9110 13.1.2). */
function notModified(ifNoneMatch: string | null, asset: GraphiQLAsset): boolean {
  if (ifNoneMatch === null) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value.replace(/^W\//, '') === `"${asset.hash}"`;
  });
}

export function useGraphiQLAssets({ prefix = GRAPHIQL_ASSET_PREFIX }: { prefix?: string } = {}): Plugin {
  const copies = new EncodedCopies();
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith(`${prefix}/`)) return undefined;
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return undefined;
      }
      const file = url.pathname.slice(prefix.length + 1);
      return graphiqlAssets().then(async (assets) => {
        const asset = assets.byFile(file);
        if (asset === undefined) {
          endResponse(
            new fetchAPI.Response(refusalBody(url.pathname, noSuchFile), {
              status: noSuchFile.status,
              headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
            }),
          );
          return;
        }
        // Weak: the brotli, gzip and identity answers share it, being the same file.
        const validators = {
          etag: `W/"${asset.hash}"`,
          'cache-control': 'public, max-age=31536000, immutable',
          vary: 'Accept-Encoding',
        };
        if (notModified(request.headers.get('if-none-match'), asset)) {
          endResponse(new fetchAPI.Response(null, { status: 304, headers: validators }));
          return;
        }
        const encoding = staticEncodingFor(request.headers.get('accept-encoding'));
        const body = await copies.get(asset.file, asset.body, encoding);
        // A view, not a copy of up to 5 MB per request; Node's Buffers and zlib's output sit on plain ArrayBuffers.
        const bytes = new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.length);
        endResponse(
          new fetchAPI.Response(request.method === 'HEAD' ? null : bytes, {
            status: 200,
            headers: {
              ...validators,
              'content-type': asset.contentType,
              'content-length': String(body.length),
              'x-content-type-options': 'nosniff',
              ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
            },
          }),
        );
      });
    },
  };
}
