// The package ships no types; only what src/state/data-dir-lock.ts and scripts/build.ts use.
declare module 'fs-native-extensions' {
  /** An exclusive (or `shared`) OFD lock on the whole file; false when another descriptor holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  /** Resolves once the exclusive lock on the whole file is held (waits for the holder to let go). */
  export function waitForLock(fd: number): Promise<void>;
  export function unlock(fd: number): void;
}
