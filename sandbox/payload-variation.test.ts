import { describe, expect, it } from 'vitest';
import { varyPayload, type PayloadVariation } from './payload-variation.js';

const variation: PayloadVariation = {
  extraFields: { extra: { nested: [1] } },
  mapKeys: new Set(['stats']),
  maps: { '/t': ['home'] },
  absent: { '/t': ['events.*.season.name', 'events.0.venue', 'gone'] },
};

describe('payload variation (the alt data set dresses every JSON answer)', () => {
  it('adds the extra fields to every object but not to maps keyed by data, and leaves out the absent parts', () => {
    const body = {
      gone: 1,
      home: { '100': 3, '101': 4 },
      events: [
        { id: 1, season: { id: 9, name: 'S' }, venue: { id: 5 }, stats: { '7': { value: '0' } } },
        { id: 2, season: { id: 9, name: 'S' }, venue: { id: 6 } },
      ],
    };
    const varied = varyPayload(variation, '/t', body) as typeof body & { extra: unknown };
    expect(varied).toEqual({
      extra: { nested: [1] },
      home: { '100': 3, '101': 4 },
      events: [
        {
          id: 1,
          season: { id: 9, extra: { nested: [1] } },
          stats: { '7': { value: '0', extra: { nested: [1] } } },
          extra: { nested: [1] },
        },
        {
          id: 2,
          season: { id: 9, extra: { nested: [1] } },
          venue: { id: 6, extra: { nested: [1] } },
          extra: { nested: [1] },
        },
      ],
    });
    // The handler's own objects are fixtures shared by every answer: never changed.
    expect(body.gone).toBe(1);
    expect(body.events[0]?.season).toEqual({ id: 9, name: 'S' });
  });

  it('dresses an object that appears in many places once (it used to nest extras without end)', () => {
    const season = { id: 9, name: 'S' };
    const body = { events: Array.from({ length: 40 }, (_, id) => ({ id, season, tournament: { season } })) };
    const varied = varyPayload({ ...variation, absent: {} }, '/other', body) as {
      events: Array<{ season: unknown; tournament: { season: unknown } }>;
    };
    for (const event of varied.events) {
      expect(event.season).toEqual({ id: 9, name: 'S', extra: { nested: [1] } });
      expect(event.tournament.season).toEqual({ id: 9, name: 'S', extra: { nested: [1] } });
    }
  });

  it('keeps a field the object already has', () => {
    const varied = varyPayload(variation, '/other', { extra: 'own' });
    expect(varied).toEqual({ extra: 'own' });
  });
});
