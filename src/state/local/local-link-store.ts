/**
 * Learned counterparts of a gateway alone: in memory, and in
 * `DATA_DIR/counterparts.json`, written whole through a temporary file and
 * a rename (state-file.ts) after each new finding, so a restart answers
 * what was learned without a request.
 *
 * Unlike `quota.json`, a damaged file does not stop start-up: what it held
 * is re-learnable (each entity's searches once more), while a stopped
 * gateway answers nothing. It is moved aside as
 * `counterparts.json.damaged-<epoch ms>` for a look, and the gateway starts
 * with no learned links, saying so in the log.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Finding } from '../../identity/entity-ref.js';
import { isFinding, type LinkStore } from '../../identity/link-store.js';
import { readJsonState, StateFileError, writeAtomic } from '../state-file.js';

export const LINKS_FILE = 'counterparts.json';
const FORMAT = 1;

export class LocalLinkStore implements LinkStore {
  readonly #findings: Map<string, Finding>;
  readonly #file: string;
  readonly #logger: Logger;
  /** Writes one after the other: the file always holds a whole map, the newest last. */
  #writing: Promise<void> = Promise.resolve();

  private constructor(file: string, findings: Map<string, Finding>, logger: Logger) {
    this.#file = file;
    this.#findings = findings;
    this.#logger = logger;
  }

  static async open(dataDir: string, logger: Logger): Promise<LocalLinkStore> {
    const file = join(dataDir, LINKS_FILE);
    const findings = new Map<string, Finding>();
    let problem: string | undefined;
    try {
      const parsed = await readJsonState(file, 'it is moved aside');
      if (parsed !== undefined) {
        const { format, findings: kept } = (parsed ?? {}) as { format?: unknown; findings?: unknown };
        if (format !== FORMAT || typeof kept !== 'object' || kept === null) problem = 'not a counterparts file';
        else
          for (const [key, finding] of Object.entries(kept)) {
            if (isFinding(finding)) findings.set(key, finding);
            else problem = `entry ${JSON.stringify(key)} is damaged`;
          }
      }
    } catch (error) {
      if (!(error instanceof StateFileError)) throw error;
      problem = error.message;
    }
    if (problem !== undefined) {
      const aside = `${file}.damaged-${Date.now()}`;
      await rename(file, aside);
      logger.warn(
        { file, aside, problem },
        'the learned counterparts file was damaged: moved aside, starting with none',
      );
      findings.clear();
    }
    return new LocalLinkStore(file, findings, logger);
  }

  get(key: string): Promise<Finding | undefined> {
    return Promise.resolve(this.#findings.get(key));
  }

  put(key: string, finding: Finding): Promise<void> {
    this.#findings.set(key, finding);
    const content = JSON.stringify({ format: FORMAT, findings: Object.fromEntries(this.#findings) });
    this.#writing = this.#writing.then(() =>
      writeAtomic(this.#file, content).catch((error: unknown) => {
        // Kept in memory: this process still answers it; a restart searches again.
        this.#logger.warn({ err: error, file: this.#file }, 'a learned counterpart was not written');
      }),
    );
    return this.#writing;
  }
}
