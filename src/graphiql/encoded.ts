/**
 * Compressed copies of static files, made once per file and encoding and
 * kept: GraphiQL's 5 MB app would otherwise cost a fresh compression (a
 * quarter of a second of CPU) on every request for it.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import Negotiator from 'negotiator';

export type StaticEncoding = 'br' | 'gzip' | 'identity';

const offered: readonly StaticEncoding[] = ['br', 'gzip', 'identity'];
/** Chosen in this order when the client weighs them equally (as the `compression` middleware does). */
const preferred: readonly StaticEncoding[] = ['br', 'gzip'];

/** negotiator 0.6.4 takes the server's preference as a second argument (`compression` passes it); @types/negotiator does not declare it. */
interface WithPreference {
  encoding(available: readonly string[], preferred: readonly string[]): string | undefined;
}

const compressBrotli = promisify(brotliCompress);
const compressGzip = promisify(gzip);

/** The encoding to send for a request's `Accept-Encoding` (absent: identity). */
export function staticEncodingFor(acceptEncoding: string | null): StaticEncoding {
  if (acceptEncoding === null) return 'identity';
  const negotiator = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as WithPreference;
  const chosen = negotiator.encoding(offered, preferred);
  return chosen === 'br' || chosen === 'gzip' ? chosen : 'identity';
}

export class EncodedCopies {
  readonly #copies = new Map<string, Promise<Buffer>>();

  /** `body` in `encoding`, compressed on first use (on the thread pool, not the event loop). */
  get(key: string, body: Buffer, encoding: StaticEncoding): Promise<Buffer> {
    if (encoding === 'identity') return Promise.resolve(body);
    const id = `${encoding}:${key}`;
    let copy = this.#copies.get(id);
    if (copy === undefined) {
      // Brotli's top quality takes ~20 s on the 5 MB app; 5 is within 10 % of its size in a fraction of a second.
      copy =
        encoding === 'br'
          ? compressBrotli(body, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
            })
          : compressGzip(body, { level: 9 });
      // A failed compression is not kept: the next request tries again.
      copy.catch(() => this.#copies.delete(id));
      this.#copies.set(id, copy);
    }
    return copy;
  }
}
