/**
 * A small file system of its own for disk-fault tests (issue 35 item 4): a
 * tmpfs that can be filled to the last byte or remounted read-only, so a
 * full disk and a read-only DATA_DIR are real kernel answers (ENOSPC,
 * EROFS), not stand-ins. Needs root (mount); root also ignores file
 * permissions, which is why read-only means a read-only mount here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  readonly dir: string;
  /** Writes a filler file until the file system has no byte left. */
  fill(): Promise<void>;
  /** Removes the filler: space again. */
  unfill(): Promise<void>;
  /** Remounts it read-only (`ro: true`) or writable again. */
  remount(options: { ro: boolean }): void;
  /** Unmounts and removes the mount point. */
  unmount(): Promise<void>;
}

/** Why a tmpfs cannot be mounted here, or undefined when it can (tests skip with this reason). */
export function tmpfsUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no mount command';
  }
  return undefined;
}

export async function mountTmpfs(sizeBytes: number): Promise<Tmpfs> {
  const dir = await mkdtemp(join(tmpdir(), 'disk-fault-'));
  const size = `size=${sizeBytes}`;
  execFileSync('mount', ['-t', 'tmpfs', '-o', size, 'tmpfs', dir]);
  const filler = join(dir, '.filler');
  return {
    dir,
    fill: async () => {
      // One write of the whole free space fails with ENOSPC after writing what fits; a few small ones take the rest.
      const { bavail, bsize } = statfsSync(dir);
      await writeFile(filler, Buffer.alloc(bavail * bsize)).catch(() => undefined);
      for (let i = 0; i < 64 && statfsSync(dir).bavail > 0; i += 1) {
        await writeFile(`${filler}.${i}`, Buffer.alloc(bsize)).catch(() => undefined);
      }
    },
    unfill: async () => {
      await rm(filler, { force: true });
      for (let i = 0; i < 64; i += 1) await rm(`${filler}.${i}`, { force: true });
    },
    remount: ({ ro }) => execFileSync('mount', ['-o', `remount,${ro ? 'ro' : 'rw'},${size}`, dir]),
    unmount: async () => {
      execFileSync('umount', ['-l', dir]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
