// The package ships no types; only what src/state/data-dir-lock.ts uses.
declare module 'fs-native-extensions' {
  /** An exclusive (or `shared`) OFD lock on the whole file; false when another descriptor holds it. */
  export function tryLock(fd: number, options?: { shared?: boolean }): boolean;
  export function unlock(fd: number): void;
}
