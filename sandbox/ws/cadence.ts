/**
 * When the sandbox sends odds frames (spec 6.3, 6.4):
 *
 * - an immediate snapshot to each new subscriber;
 * - about `eventDelayMs` after a match event;
 * - a change-gated refresh every `refreshMinMs`..`refreshMaxMs`: a frame goes
 *   out only when the book moved since the last one;
 * - when nothing moves, still one frame every `quietMinMs`..`quietMaxMs`
 *   (the spec's observed 63 to 149 s gaps while prices do not move).
 *
 * `spec` follows the spec's numbers and lets prices drift on their own;
 * `fast` is for tests: the same rules on a short clock, and no drift, so
 * every change a test sees is one it asked for.
 */
export type OddsCadence = 'spec' | 'fast';

export interface CadenceTiming {
  readonly eventDelayMs: number;
  readonly refreshMinMs: number;
  readonly refreshMaxMs: number;
  readonly quietMinMs: number;
  readonly quietMaxMs: number;
  /** Chance that a price moves on its own at each refresh. */
  readonly driftProbability: number;
}

export const cadences: Readonly<Record<OddsCadence, CadenceTiming>> = {
  spec: {
    eventDelayMs: 300,
    refreshMinMs: 24_000,
    refreshMaxMs: 30_000,
    quietMinMs: 63_000,
    quietMaxMs: 149_000,
    driftProbability: 0.5,
  },
  fast: {
    eventDelayMs: 30,
    refreshMinMs: 50,
    refreshMaxMs: 50,
    quietMinMs: 150,
    quietMaxMs: 200,
    driftProbability: 0,
  },
};
