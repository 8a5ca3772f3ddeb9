/**
 * Each child's output, line by line, with its name in front: children write
 * in chunks that split lines, and interleaved half-lines from several
 * replicas sharing one terminal are unreadable.
 */

export interface LinePrefixer {
  /** Takes a chunk; writes the whole lines it completes. */
  push(chunk: string): void;
  /** Writes what is left of an unfinished line. */
  flush(): void;
}

export function linePrefixer(prefix: string, write: (text: string) => void): LinePrefixer {
  let partial = '';
  return {
    push(chunk) {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      if (lines.length > 0) write(lines.map((line) => `${prefix}${line}\n`).join(''));
    },
    flush() {
      if (partial !== '') write(`${prefix}${partial}\n`);
      partial = '';
    },
  };
}
