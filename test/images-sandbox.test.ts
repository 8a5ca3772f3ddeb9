/**
 * The sandbox's image delivery as the spec describes it: real image bytes,
 * the 1,466-byte placeholder, V2 Cache-Control, V6 thumbnails and type rules,
 * the V6 404 wording, keys and counting.
 */
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imageIds } from '../sandbox/fixtures/images.js';
import { jpegImage, placeholderPng } from '../sandbox/fixtures/images-bytes.js';
import { startSandbox, type SandboxHandle } from '../sandbox/server.js';
import { requestCounts, resetCounts, setSandboxQuota } from './support/client.js';

const KEY = 'sandbox-image-key';

/** Walks a PNG's chunks, checking each CRC; returns chunk types and the inflated image data length. */
function readPng(bytes: Buffer): { types: string[]; width: number; height: number; pixels: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const types: string[] = [];
  const idat: Buffer[] = [];
  let offset = 8;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    let c = 0xffffffff;
    for (const byte of bytes.subarray(offset + 4, offset + 8 + length)) {
      c ^= byte;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    expect((c ^ 0xffffffff) >>> 0).toBe(crc);
    types.push(type);
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const width = bytes.readUInt32BE(16);
  const height = bytes.readUInt32BE(20);
  return { types, width, height, pixels: inflateSync(Buffer.concat(idat)).length };
}

describe('sandbox images', () => {
  let sandbox: SandboxHandle;
  const get = (path: string, key = true) =>
    fetch(`${sandbox.url}${path}`, { headers: key ? { 'x-api-key': KEY } : {} });
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, apiKey: KEY, allowance: 100 });
  });
  afterAll(() => sandbox.close());
  beforeEach(() => resetCounts(sandbox.url));

  it('makes a valid 1,466-byte grey placeholder PNG and a well-formed JPEG', () => {
    const placeholder = placeholderPng();
    expect(placeholder.length).toBe(1466);
    const png = readPng(placeholder);
    expect(png.types).toEqual(['IHDR', 'tEXt', 'IDAT', 'IEND']);
    expect(png.pixels).toBe(png.height * (1 + png.width * 3));
    const jpeg = jpegImage(200);
    expect(jpeg.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(jpeg.subarray(-2).toString('hex')).toBe('ffd9');
  });

  it('serves V1 images free and keyless, the placeholder with 200 for unknown competitors', async () => {
    const logo = await get(`/v1/football/images/competitors/${imageIds.v1LogoCompetitor}`, false);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    readPng(Buffer.from(await logo.arrayBuffer()));
    const unknown = await get('/v1/football/images/competitors/123', false);
    expect(unknown.status).toBe(200);
    expect(Buffer.from(await unknown.arrayBuffer()).length).toBe(1466);
    const athlete = await get(`/v1/football/images/athletes/${imageIds.v1Athlete}`, false);
    expect(athlete.headers.get('content-type')).toBe('image/jpeg');
    const competition = await get(`/v1/football/images/competitions/${imageIds.v1Competition}`, false);
    expect(competition.headers.get('content-type')).toBe('image/svg+xml');
    expect(await competition.text()).toContain('<svg');
  });

  it('serves V2 images with a key and Cache-Control, 404 with the V6 wording otherwise', async () => {
    expect((await get(`/v2/football/images/teams/${imageIds.v2Football.team}`, false)).status).toBe(401);
    const team = await get(`/v2/football/images/teams/${imageIds.v2Football.team}`);
    expect(team.status).toBe(200);
    expect(team.headers.get('cache-control')).toBe('public, max-age=86400');
    const missing = await get(`/v2/football/images/teams/${imageIds.v2Football.unknownTeam}`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: 'Image not found upstream' });
    expect((await get(`/v2/football/images/players/${imageIds.v2Football.player}`)).headers.get('content-type')).toBe(
      'image/jpeg',
    );
    expect((await get(`/v2/football/images/tournaments/${imageIds.v2Football.tournament}`)).status).toBe(200);
  });

  it('applies the V6 type rules and !w80 thumbnails', async () => {
    const full = readPng(Buffer.from(await (await get(`/v6/football/images/teams/${imageIds.v6.team}`)).arrayBuffer()));
    const thumb = readPng(
      Buffer.from(await (await get(`/v6/football/images/teams/${imageIds.v6.team}!w80`)).arrayBuffer()),
    );
    expect(thumb.width).toBe(80);
    expect(full.width).toBeGreaterThan(80);
    expect((await get(`/v6/football/images/${imageIds.v6.player}`)).status).toBe(200);
    const wrong = await get(`/v6/football/images/players/${imageIds.v6.team}`);
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ error: 'Image not found upstream' });
    expect((await get(`/v6/football/images/mascots/${imageIds.v6.team}`)).status).toBe(400);
  });

  it('counts every image request, and only 2xx/404 V2/V6 answers against the allowance', async () => {
    await setSandboxQuota(sandbox.url, { used: 0 });
    await get(`/v1/football/images/competitors/1`, false);
    await get(`/v6/football/images/mascots/${imageIds.v6.team}`);
    await get(`/v6/football/images/teams/${imageIds.v6.team}`);
    const counts = await requestCounts(sandbox.url);
    expect(counts.total).toBe(3);
    const quota = (await (await fetch(`${sandbox.url}/__sandbox/quota`)).json()) as { used: number };
    expect(quota.used).toBe(1);
  });
});
