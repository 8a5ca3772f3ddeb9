/**
 * A damaged image index never makes the gateway pay for its stored images
 * again (issue 12): through the image route, a restart, and the sandbox's
 * request counters.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageIds } from '../sandbox/fixtures/images.js';
import { StateFileError } from '../src/state/state-file.js';
import { requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const images = [
  {
    path: `/images/v2/football/teams/${imageIds.v2Football.team}`,
    key: `v2/football/teams/${imageIds.v2Football.team}`,
  },
  {
    path: `/images/v2/football/players/${imageIds.v2Football.player}`,
    key: `v2/football/players/${imageIds.v2Football.player}`,
  },
  { path: `/images/v2/hockey/teams/${imageIds.v2Hockey.team}`, key: `v2/hockey/teams/${imageIds.v2Hockey.team}` },
] as const;

async function get(base: string, path: string): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(`${base}${path}`);
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

describe('image index damage', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('one damaged index entry costs one image: after a restart the undamaged stored images are served with 0 upstream requests', async () => {
    const first = [];
    for (const image of images) first.push(await get(stack.gateway.url, image.path));
    expect(first.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(3);
    await stack.stopGateway();

    // Damage the index where the second image's entry is, whatever file holds it.
    const imagesDir = join(stack.dataDir, 'images');
    const indexName = (await readdir(imagesDir)).find((name) => name.startsWith('index.json'));
    expect(indexName).toBeDefined();
    const indexFile = join(imagesDir, indexName ?? '');
    const text = await readFile(indexFile, 'utf8');
    const at = text.indexOf(images[1].key);
    expect(at).toBeGreaterThan(0);
    await writeFile(
      indexFile,
      `${text.slice(0, at + images[1].key.length)}\u0000#${text.slice(at + images[1].key.length + 2)}`,
    );

    await stack.restartGateway();
    await resetCounts(stack.sandbox.url);
    const undamaged = [await get(stack.gateway.url, images[0].path), await get(stack.gateway.url, images[2].path)];
    expect(undamaged.map((answer) => answer.status)).toEqual([200, 200]);
    expect(undamaged[0]?.body.equals(first[0]?.body ?? Buffer.alloc(0))).toBe(true);
    expect(undamaged[1]?.body.equals(first[2]?.body ?? Buffer.alloc(0))).toBe(true);
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);

    // Only the damaged entry is forgotten: its image is downloaded once more, then stored again.
    expect((await get(stack.gateway.url, images[1].path)).status).toBe(200);
    expect((await get(stack.gateway.url, images[1].path)).status).toBe(200);
    expect(
      (await requestCounts(stack.sandbox.url)).byRoute[`GET /v2/football/images/players/${imageIds.v2Football.player}`],
    ).toBe(1);
    expect(stack.logs.some((line) => line.includes(indexFile) && line.includes('"line":'))).toBe(true);
  });

  it('an index that cannot be read stops start-up naming the file, and the gateway starts once it is fixed', async () => {
    await stack.stopGateway();
    const indexFile = join(stack.dataDir, 'images', 'index.jsonl');
    await rm(indexFile, { force: true });
    await mkdir(indexFile);
    const refused = await stack.restartGateway().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateFileError);
    expect((refused as Error).message).toContain(`${indexFile}: cannot be read (EISDIR)`);

    // The failed start left DATA_DIR unlocked: once the file is fixed the gateway starts on it.
    await rm(indexFile, { recursive: true });
    await stack.restartGateway();
    await resetCounts(stack.sandbox.url);
    expect((await get(stack.gateway.url, images[0].path)).status).toBe(200);
  });
});
