/** Resolves once `condition` holds, checking every 50 ms; fails after `boundMs`, naming `what`. */
export async function until(
  what: string,
  condition: () => boolean | Promise<boolean>,
  boundMs = 15_000,
): Promise<void> {
  const giveUpAt = Date.now() + boundMs;
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`not within ${boundMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
