import { describe, expect, it } from 'vitest';
import { readClusterSettings } from '../scripts/cluster-settings.js';
import { ConfigError, loadConfig } from './config.js';
import { envReader } from './env-reader.js';

describe('envReader', () => {
  it('names every bad value at once and falls back to the defaults', () => {
    const read = envReader({ A: '1e3', B: '70000', C: 'ftp://x', D: 'maybe', SPORTS_API_PLAN: 'gold' });
    expect(read.int('A', 5)).toBe(5);
    expect(read.int('B', 4000, 1, 65_535)).toBe(4000);
    expect(read.url('C', ['http:'])).toBeUndefined();
    expect(read.bool('D', true)).toBe(true);
    expect(read.plan('free')).toBe('free');
    expect(read.problems).toEqual([
      'A must be an integer >= 0, got "1e3"',
      'B must be an integer from 1 to 65535, got "70000"',
      'C must use http:, got "ftp:"',
      'D must be true or false, got "maybe"',
      'SPORTS_API_PLAN must be one of free, pro, ultra, mega, got "gold"',
    ]);
  });

  it('reads good values, blanks as unset, and trims URLs and lists', () => {
    const read = envReader({ A: '42', E: '', U: 'http://h:1//', L: ' a, ,b ', SPORTS_API_PLAN: 'PRO' });
    expect([
      read.int('A', 0),
      read.optionalInt('E'),
      read.url('U', ['http:']),
      read.list('L'),
      read.plan('free'),
    ]).toEqual([42, undefined, 'http://h:1', ['a', 'b'], 'pro']);
    expect(read.problems).toEqual([]);
  });

  it('reads a choice case-insensitively, its default when unset, and names the choices when wrong', () => {
    const read = envReader({ A: 'Disk', B: 'redis' });
    expect([
      read.choice('A', ['memory', 'disk'], 'memory'),
      read.choice('C', ['memory', 'disk'], 'disk'),
      read.choice('B', ['memory', 'disk'], 'disk'),
    ]).toEqual(['disk', 'disk', 'disk']);
    expect(read.problems).toEqual(['B must be one of memory, disk, got "redis"']);
    expect(loadConfig({ CACHE_DISK_MAX_MB: '3' })).toMatchObject({
      cacheStore: 'disk',
      cacheDiskMaxBytes: 3 * 1024 * 1024,
    });
    expect(() => loadConfig({ CACHE_DISK_MAX_MB: '0' })).toThrow(
      /CACHE_DISK_MAX_MB must be an integer from 1 to 1048576, got "0"/,
    );
  });

  it('judges a variable alike in the gateway and in npm run cluster', () => {
    const env = { PORT: '99999', SPORTS_API_PLAN: 'gold' };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/PORT must be an integer/);
    expect(() => readClusterSettings(env, [])).toThrow(
      /PORT must be an integer from 1 to 65535, got "99999"\nSPORTS_API_PLAN must be one of/,
    );
    expect(() => readClusterSettings({}, ['40'])).toThrow(/CLUSTER_REPLICAS must be an integer from 1 to 32, got "40"/);
    expect(readClusterSettings({ REDIS_PORT: '7001' }, ['2'])).toMatchObject({
      replicas: 2,
      firstPort: 4000,
      redisPort: 7001,
      plan: 'mega',
    });
  });
});
