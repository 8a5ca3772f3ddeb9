import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../identity/entity-ref.js';
import { LINKS_FILE, LocalLinkStore } from './local-link-store.js';

const logger = pino({ level: 'silent' });

const finding = (nativeId: string): Finding => ({
  learnedAt: 1_700_000_000_000,
  counterparts: [
    {
      version: 'v1',
      sport: 'football',
      kind: 'team',
      nativeId,
      name: `Club ${nativeId}`,
      confidence: 0.95,
      evidence: 'NAME_AND_COUNTRY',
      status: 'MATCH',
    },
  ],
});

describe('LocalLinkStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'links-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('a burst of findings is one write of the file, not one per finding, and a restart reads them all', async () => {
    const store = await LocalLinkStore.open(dir, logger, { persistDelayMs: 60_000 });
    await Promise.all(
      Array.from({ length: 104 }, (_, i) => store.put(`v2:football:match:v1:${i}`, finding(String(i)))),
    );
    // Nothing is written while the window is open: the findings answer from memory meanwhile.
    expect(store.writes).toBe(0);
    expect(await store.get('v2:football:match:v1:103')).toEqual(finding('103'));
    await store.flush();
    expect(store.writes).toBe(1);
    await store.close();

    const restarted = await LocalLinkStore.open(dir, logger);
    expect(await restarted.get('v2:football:match:v1:0')).toEqual(finding('0'));
    expect(await restarted.get('v2:football:match:v1:103')).toEqual(finding('103'));
    await restarted.close();
  });

  it('reads the first layout ({ format: 1, findings }) and writes it back as a state document', async () => {
    await writeFile(
      join(dir, LINKS_FILE),
      JSON.stringify({ format: 1, findings: { 'v2:football:team:v1:970001': finding('91001') } }),
    );
    const store = await LocalLinkStore.open(dir, logger);
    expect(await store.get('v2:football:team:v1:970001')).toEqual(finding('91001'));
    await store.close();
    expect(JSON.parse(await readFile(join(dir, LINKS_FILE), 'utf8'))).toMatchObject({
      version: 2,
      findings: { 'v2:football:team:v1:970001': finding('91001') },
    });
  });

  it('a damaged file is moved aside and the store starts empty', async () => {
    await writeFile(join(dir, LINKS_FILE), '{"version":2,"seq":3,"findings":{"a":');
    const store = await LocalLinkStore.open(dir, logger);
    expect(await store.get('a')).toBeUndefined();
    expect((await readdir(dir)).some((name) => name.startsWith(`${LINKS_FILE}.damaged-`))).toBe(true);
    await store.close();
  });
});
