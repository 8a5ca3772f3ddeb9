/**
 * A small progress bar for the importer: redrawn in place on a terminal, a
 * line every tenth of the way otherwise (CI logs, pipes).
 */
export interface ProgressBarOptions {
  readonly total: number;
  readonly stream: NodeJS.WriteStream | NodeJS.WritableStream;
  /** @default 30 */
  readonly width?: number;
}

export class ProgressBar {
  private lastTenth = -1;

  constructor(private readonly options: ProgressBarOptions) {}

  private get tty(): boolean {
    return (this.options.stream as { isTTY?: boolean }).isTTY === true;
  }

  update(done: number, detail: string): void {
    const { total, stream, width = 30 } = this.options;
    const ratio = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(ratio * width);
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${detail}`;
    if (this.tty) {
      stream.write(`\r${line}\u001b[K`);
      return;
    }
    const tenth = Math.floor(ratio * 10);
    if (tenth !== this.lastTenth) {
      this.lastTenth = tenth;
      stream.write(`${line}\n`);
    }
  }

  finish(): void {
    if (this.tty) this.options.stream.write('\n');
  }
}
