/**
 * Damage in an LMDB file where the gateway reads entries, not where it reads
 * its index: zeroes every leaf page of the cache file (lmdb-js's layout:
 * 4 KiB pages, a 24-byte page header, the key count and node offsets
 * counted from the header's end) that holds answers. Such a page is
 * told from the `used` records' pages by its nodes: an answer is stored
 * big (on overflow pages) or inline at hundreds of bytes, a `used` record
 * is a few msgpack numbers. The start-up index therefore still reads, and
 * the fault shows at the first read of an entry, as a zeroed page would in
 * a file damaged on disk.
 */
import { open } from 'node:fs/promises';

const PAGE_SIZE = 4096;
const PAGE_HEADER = 24;
const FLAGS_OFFSET = 18;
const LOWER_OFFSET = 20;
const P_LEAF = 0x02;
const P_META = 0x08;
const F_BIGDATA = 0x01;
const F_SUBDATA = 0x02;
/** A `used` record ([usedAt, bytes, uselessAt] in msgpack) is far below this. */
const ANSWER_MIN_BYTES = 64;

/** @returns how many pages were zeroed. */
export async function zeroEntryPages(file: string): Promise<number> {
  const handle = await open(file, 'r+');
  try {
    const { size } = await handle.stat();
    let zeroed = 0;
    for (let page = 2; page < size / PAGE_SIZE; page += 1) {
      const buffer = Buffer.alloc(PAGE_SIZE);
      await handle.read(buffer, 0, PAGE_SIZE, page * PAGE_SIZE);
      if (!holdsAnswers(buffer)) continue;
      await handle.write(Buffer.alloc(PAGE_SIZE), 0, PAGE_SIZE, page * PAGE_SIZE);
      zeroed += 1;
    }
    return zeroed;
  } finally {
    await handle.close();
  }
}

function holdsAnswers(page: Buffer): boolean {
  const flags = page.readUInt16LE(FLAGS_OFFSET);
  if ((flags & P_LEAF) === 0 || (flags & P_META) !== 0) return false;
  const keys = page.readUInt16LE(LOWER_OFFSET) >> 1;
  for (let i = 0; i < keys; i += 1) {
    const node = PAGE_HEADER + page.readUInt16LE(PAGE_HEADER + 2 * i);
    if (node + 8 > PAGE_SIZE) return false;
    const dataSize = page.readUInt16LE(node) | (page.readUInt16LE(node + 2) << 16);
    const nodeFlags = page.readUInt16LE(node + 4);
    if ((nodeFlags & F_SUBDATA) !== 0) return false;
    if ((nodeFlags & F_BIGDATA) !== 0 || dataSize >= ANSWER_MIN_BYTES) return true;
  }
  return false;
}
