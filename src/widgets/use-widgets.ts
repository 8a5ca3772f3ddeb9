/**
 * Static widget pages served by the gateway (`/widgets/odds?match=ID`).
 * Everything a page needs comes from here: no CDN, no font host, and a
 * Content-Security-Policy that forbids the browser to fetch or connect
 * anywhere but the gateway itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'graphql-yoga';
import { runtimeDir } from '../runtime-files.js';

interface Asset {
  readonly body: string;
  readonly contentType: string;
}

/** Read once at start: the pages are small and never change while running. */
function loadAssets(prefix: string): ReadonlyMap<string, Asset> {
  const read = (file: string): string => readFileSync(join(runtimeDir('oddsWidget'), file), 'utf8');
  return new Map<string, Asset>([
    [`${prefix}/odds`, { body: read('index.html'), contentType: 'text/html; charset=utf-8' }],
    [`${prefix}/odds/widget.js`, { body: read('widget.js'), contentType: 'text/javascript; charset=utf-8' }],
    [`${prefix}/odds/widget.css`, { body: read('widget.css'), contentType: 'text/css; charset=utf-8' }],
  ]);
}

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

export function useWidgets({ prefix = '/widgets' }: { prefix?: string } = {}): Plugin {
  const assets = loadAssets(prefix);
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (!url.pathname.startsWith(`${prefix}/`)) return;
      const asset = assets.get(url.pathname.replace(/\/$/, ''));
      if (asset === undefined) {
        endResponse(
          new fetchAPI.Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } }),
        );
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        endResponse(new fetchAPI.Response(null, { status: 405, headers: { allow: 'GET, HEAD' } }));
        return;
      }
      endResponse(
        new fetchAPI.Response(request.method === 'HEAD' ? null : asset.body, {
          status: 200,
          headers: {
            'content-type': asset.contentType,
            'cache-control': 'no-cache',
            'content-security-policy': CONTENT_SECURITY_POLICY,
            'x-content-type-options': 'nosniff',
          },
        }),
      );
    },
  };
}
