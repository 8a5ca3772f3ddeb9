/**
 * A wrong enum value gets the nearest valid one in its error, whether it
 * was written in the operation or sent as a variable, over HTTP or
 * graphql-ws, before any upstream request.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { nearestName } from '../src/model/nearest-name.js';
import { gql, requestCounts, resetCounts } from './support/client.js';
import { startStack, type TestStack } from './support/servers.js';

const SPORTS = [
  'FOOTBALL',
  'ICE_HOCKEY',
  'BASKETBALL',
  'TENNIS',
  'TABLE_TENNIS',
  'WATER_POLO',
  'VOLLEYBALL',
  'BEACH_VOLLEYBALL',
  'MMA',
];

describe('nearestName', () => {
  it('finds a word of the name, another spelling of it, or a typo', () => {
    expect(nearestName('HOCKEY', SPORTS)).toBe('ICE_HOCKEY');
    expect(nearestName('hockey', SPORTS)).toBe('ICE_HOCKEY');
    expect(nearestName('ice-hockey', SPORTS)).toBe('ICE_HOCKEY');
    expect(nearestName('waterpolo', SPORTS)).toBe('WATER_POLO');
    expect(nearestName('Water Polo', SPORTS)).toBe('WATER_POLO');
    // The shortest name holding every word: the least added.
    expect(nearestName('TENNIS', ['TABLE_TENNIS', 'TENNIS_DOUBLES', 'TENNIS'])).toBe('TENNIS');
    expect(nearestName('VOLLEYBALL', ['BEACH_VOLLEYBALL'])).toBe('BEACH_VOLLEYBALL');
    expect(nearestName('BASKETBAL', SPORTS)).toBe('BASKETBALL');
  });

  it('finds a typo inside a word of the name', () => {
    expect(nearestName('hokey', SPORTS)).toBe('ICE_HOCKEY');
    expect(nearestName('ice hokey', SPORTS)).toBe('ICE_HOCKEY');
    expect(nearestName('watr polo', SPORTS)).toBe('WATER_POLO');
    expect(nearestName('volleybal', SPORTS)).toBe('VOLLEYBALL');
  });

  it('suggests nothing rather than something far', () => {
    expect(nearestName('SOCCER', SPORTS)).toBeUndefined();
    expect(nearestName('', SPORTS)).toBeUndefined();
    expect(nearestName('---', SPORTS)).toBeUndefined();
    expect(nearestName('MA', SPORTS)).toBe('MMA');
    expect(nearestName('X', SPORTS)).toBeUndefined();
  });
});

describe('enum mistakes answered with the nearest valid value', () => {
  let stack: TestStack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('in the operation: 400 GRAPHQL_VALIDATION_FAILED, "Did you mean the enum value "ICE_HOCKEY"?"', async () => {
    await resetCounts(stack.sandbox.url);
    const result = await gql(stack.gateway.url, '{ sport(sport: HOCKEY) { sport } }');
    expect(result.status).toBe(400);
    expect(result.errors?.[0]).toMatchObject({
      message: 'Value "HOCKEY" does not exist in "Sport" enum. Did you mean the enum value "ICE_HOCKEY"?',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', didYouMean: 'ICE_HOCKEY' },
    });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it("in a variable: 400 BAD_USER_INPUT with the same suggestion; graphql-js's own suggestions stay as they were", async () => {
    await resetCounts(stack.sandbox.url);
    const query = 'query ($s: Sport!) { sport(sport: $s) { sport } }';
    const word = await gql(stack.gateway.url, query, { s: 'HOCKEY' });
    expect(word.status).toBe(400);
    expect(word.errors?.[0]).toMatchObject({
      message:
        'Variable "$s" got invalid value "HOCKEY"; Value "HOCKEY" does not exist in "Sport" enum. Did you mean the enum value "ICE_HOCKEY"?',
      extensions: { code: 'BAD_USER_INPUT', didYouMean: 'ICE_HOCKEY' },
    });
    // Within graphql-js's own reach (a few edits, case aside): its suggestion, once.
    for (const [sent, meant] of [
      ['FOOTBAL', 'the enum value "FOOTBALL", "FLOORBALL", or "FUTSAL"'],
      ['ice-hockey', 'the enum value "ICE_HOCKEY"'],
    ] as const) {
      const own = await gql(stack.gateway.url, query, { s: sent });
      expect(own.errors?.[0]?.message).toBe(
        `Variable "$s" got invalid value "${sent}"; Value "${sent}" does not exist in "Sport" enum. Did you mean ${meant}?`,
      );
    }
    const far = await gql(stack.gateway.url, query, { s: 'QUIDDITCH' });
    expect(far.errors?.[0]?.message).toBe(
      'Variable "$s" got invalid value "QUIDDITCH"; Value "QUIDDITCH" does not exist in "Sport" enum.',
    );
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('a string literal where an enum goes: the value it meant, with didYouMean (also inside an input object)', async () => {
    await resetCounts(stack.sandbox.url);
    const literal = await gql(stack.gateway.url, '{ sport(sport: "hockey") { sport } }');
    expect(literal.status).toBe(400);
    expect(literal.errors?.[0]).toMatchObject({
      message: 'Enum "Sport" cannot represent non-enum value: "hockey". Did you mean the enum value "ICE_HOCKEY"?',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', didYouMean: 'ICE_HOCKEY' },
    });
    const nested = await gql(stack.gateway.url, '{ logo(sources: { v2Sport: "water polo", v2TeamId: "1" }) { url } }');
    expect(nested.errors?.[0]).toMatchObject({
      message: expect.stringContaining('Did you mean the enum value "WATER_POLO"?'),
      extensions: { didYouMean: 'WATER_POLO' },
    });
    // Nothing near: graphql-js's message alone.
    const far = await gql(stack.gateway.url, '{ sport(sport: "quidditch") { sport } }');
    expect(far.errors?.[0]?.message).toBe('Enum "Sport" cannot represent non-enum value: "quidditch".');
    expect(far.errors?.[0]?.extensions?.['didYouMean']).toBeUndefined();
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('a typo inside a word, as a literal and as a variable ($sport: Sport with "hokey")', async () => {
    await resetCounts(stack.sandbox.url);
    const literal = await gql(stack.gateway.url, '{ sport(sport: hokey) { sport } }');
    expect(literal.errors?.[0]).toMatchObject({
      message: 'Value "hokey" does not exist in "Sport" enum. Did you mean the enum value "ICE_HOCKEY"?',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', didYouMean: 'ICE_HOCKEY' },
    });
    const variable = await gql(stack.gateway.url, 'query ($sport: Sport) { sport(sport: $sport) { sport } }', {
      sport: 'hokey',
    });
    expect(variable.status).toBe(400);
    expect(variable.errors?.[0]).toMatchObject({
      message:
        'Variable "$sport" got invalid value "hokey"; Value "hokey" does not exist in "Sport" enum. Did you mean the enum value "ICE_HOCKEY"?',
      extensions: { code: 'BAD_USER_INPUT', didYouMean: 'ICE_HOCKEY' },
    });
    expect((await requestCounts(stack.sandbox.url)).total).toBe(0);
  });

  it('where graphql-js suggests on its own, its message stays and didYouMean names its first (nearest) suggestion', async () => {
    const own = await gql(stack.gateway.url, '{ sport(sport: FOOTBAL) { sport } }');
    expect(own.errors?.[0]).toMatchObject({
      message:
        'Value "FOOTBAL" does not exist in "Sport" enum. Did you mean the enum value "FOOTBALL", "FLOORBALL", or "FUTSAL"?',
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED', didYouMean: 'FOOTBALL' },
    });
    const quoted = await gql(
      stack.gateway.url,
      '{ v6 { football { teamStats(matchId: "x") { teams { period(period: "first half") { provided } } } } } }',
    );
    expect(quoted.errors?.[0]).toMatchObject({
      message:
        'Enum "V6Period" cannot represent non-enum value: "first half". Did you mean the enum value "FIRST_HALF"?',
      extensions: { didYouMean: 'FIRST_HALF' },
    });
    const variable = await gql(stack.gateway.url, 'query ($s: Sport!) { sport(sport: $s) { sport } }', {
      s: 'ice-hockey',
    });
    expect(variable.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', didYouMean: 'ICE_HOCKEY' });
  });

  it('over graphql-ws alike', async () => {
    const client = createClient({
      url: `${stack.gateway.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const errors = await new Promise<unknown>((resolve, reject) => {
        client.subscribe(
          { query: 'query ($s: Sport!) { sport(sport: $s) { sport } }', variables: { s: 'POLO' } },
          { next: (message) => resolve(message.errors), error: resolve, complete: () => reject(new Error('no error')) },
        );
      });
      expect(errors).toMatchObject([
        {
          message: expect.stringContaining('Did you mean the enum value "WATER_POLO"?'),
          extensions: { didYouMean: 'WATER_POLO' },
        },
      ]);
    } finally {
      await client.dispose();
    }
  });
});
