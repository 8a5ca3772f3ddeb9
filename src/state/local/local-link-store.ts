/**
 * Learned counterparts of a gateway alone: in memory, and in
 * `DATA_DIR/counterparts.json`, a state document (state-document.ts) of one
 * section, `findings`, so a restart answers what was learned without a
 * request.
 *
 * Written in batches, not once per finding: a new finding marks the
 * document changed (`soon()`), and the whole map is written once per
 * persist window (a second) through a temporary file and a rename, however
 * many findings the burst brought (a World Cup's 104 matches learn 104
 * findings in one operation: one write, not 104 rewrites of a growing file).
 * A clean stop writes what is pending. A crash may lose the last window's
 * findings: they are re-learnable (each entity's searches once more), so
 * nothing here waits on the disk.
 *
 * Unlike `quota.json`, a damaged file does not stop start-up: what it held
 * is re-learnable, while a stopped gateway answers nothing. It is moved
 * aside as `counterparts.json.damaged-<epoch ms>` for a look, and the
 * gateway starts with no learned links, saying so in the log.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Finding } from '../../identity/entity-ref.js';
import { isFinding, type LinkStore } from '../../identity/link-store.js';
import { StateDocument } from '../state-document.js';
import { StateFileError } from '../state-file.js';

export const LINKS_FILE = 'counterparts.json';
const SECTION = 'findings';
/** The first layout (`{ format: 1, findings }`, rewritten whole per finding): read once, written as a document. */
const LEGACY_FORMAT = 1;
const REMEDY = 'it is moved aside';

export interface LocalLinkStoreOptions {
  /** The write window (state-document.ts's `persistDelayMs`). @default 1_000 */
  readonly persistDelayMs?: number;
}

export class LocalLinkStore implements LinkStore {
  readonly #findings: Map<string, Finding>;
  readonly #state: StateDocument;

  private constructor(state: StateDocument, findings: Map<string, Finding>) {
    this.#state = state;
    this.#findings = findings;
    state.register(SECTION, () => Object.fromEntries(this.#findings));
  }

  static async open(dataDir: string, logger: Logger, options: LocalLinkStoreOptions = {}): Promise<LocalLinkStore> {
    const file = join(dataDir, LINKS_FILE);
    const open = (): Promise<StateDocument> =>
      StateDocument.open({
        file,
        remedy: REMEDY,
        legacy: (raw) => (raw['format'] === LEGACY_FORMAT ? { [SECTION]: raw[SECTION] } : undefined),
        // Kept in memory: this process still answers what it learned; a restart searches again.
        onPersistError: (error) => logger.warn({ err: error, file }, 'learned counterparts are not being written'),
        onPersistRecovered: () => logger.info({ file }, 'learned counterparts are written again'),
        ...(options.persistDelayMs === undefined ? {} : { persistDelayMs: options.persistDelayMs }),
      });
    let state: StateDocument | undefined;
    let problem: string | undefined;
    const findings = new Map<string, Finding>();
    try {
      state = await open();
      const kept = state.loaded(SECTION);
      if (state.format !== 'absent' && (typeof kept !== 'object' || kept === null)) problem = 'not a counterparts file';
      else
        for (const [key, finding] of Object.entries(kept ?? {})) {
          if (isFinding(finding)) findings.set(key, finding);
          else problem = `entry ${JSON.stringify(key)} is damaged`;
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
      state = await open();
    }
    return new LocalLinkStore(state as StateDocument, findings);
  }

  /** The document's completed writes: one per burst of findings, not one per finding. */
  get writes(): number {
    return this.#state.writes;
  }

  get(key: string): Promise<Finding | undefined> {
    return Promise.resolve(this.#findings.get(key));
  }

  /** Answers at once: the finding is written with the rest of its burst (`flush` and `close` wait for it). */
  put(key: string, finding: Finding): Promise<void> {
    this.#findings.set(key, finding);
    this.#state.soon();
    return Promise.resolve();
  }

  /** Writes what is pending now. */
  flush(): Promise<void> {
    return this.#state.flush();
  }

  /** Writes what is pending; the file alone holds what was learned. */
  close(): Promise<void> {
    return this.#state.close();
  }
}
