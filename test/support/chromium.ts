/**
 * Debian's headless Chromium through playwright-core (no browser download).
 * `npm test` installs /usr/bin/chromium when missing (scripts/system-deps.ts).
 */
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
/** Nothing a test did not ask for: no background traffic, no QUIC, no GPU. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
}
