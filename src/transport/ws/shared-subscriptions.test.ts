import { parse, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { describe, expect, it } from 'vitest';
import { MemberQueue } from '../../streams/member-queue.js';
import { SharedSubscriptions } from './shared-subscriptions.js';
import {
  preSerialize,
  preSerializedReplacer,
  restorePreSerialized,
  restorePreSerializedBytes,
} from './preserialized.js';

/** A source the test pushes results into, counting how often it was started and stopped. */
function controllableSource() {
  const state = { started: 0, returned: 0, push: (_: ExecutionResult): void => undefined };
  const start = (): AsyncIterable<ExecutionResult> => {
    state.started += 1;
    const queue: ExecutionResult[] = [];
    let wake: (() => void) | undefined;
    state.push = (result) => {
      queue.push(result);
      wake?.();
    };
    return {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
          return { value: queue.shift()!, done: false };
        },
        return: async () => {
          state.returned += 1;
          return { value: undefined, done: true };
        },
      }),
    };
  };
  return { state, start };
}

const document = parse('subscription ($m: ID!) { oddsSnapshots(matchId: $m) { matchId } }');
const args = (m: string): ExecutionArgs => ({ schema: undefined as never, document, variableValues: { m } });
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('shared subscriptions', () => {
  it('runs one execution for every subscriber of the same document and variables, and stops it with the last one', async () => {
    const shared = new SharedSubscriptions({ shareableFields: new Set(['oddsSnapshots']) });
    const source = controllableSource();
    const a = (await shared.subscribe(args('1'), source.start)) as AsyncIterableIterator<ExecutionResult>;
    const b = (await shared.subscribe(args('1'), source.start)) as AsyncIterableIterator<ExecutionResult>;
    expect(source.state.started).toBe(1);
    const frame: ExecutionResult = { data: { oddsSnapshots: { matchId: '1' } } };
    source.state.push(frame);
    expect((await a.next()).value).toBe(frame);
    expect((await b.next()).value).toBe(frame);
    expect(shared.isShared(frame)).toBe(true);

    // A latecomer gets the latest result at once.
    const late = (await shared.subscribe(args('1'), source.start)) as AsyncIterableIterator<ExecutionResult>;
    expect((await late.next()).value).toBe(frame);

    await a.return?.();
    await b.return?.();
    expect(source.state.returned).toBe(0);
    await late.return?.();
    await tick();
    expect(source.state.returned).toBe(1);
    // The next subscriber starts a new execution.
    await shared.subscribe(args('1'), source.start);
    expect(source.state.started).toBe(2);
  });

  it('keeps different variables and unlisted fields apart', async () => {
    const shared = new SharedSubscriptions({ shareableFields: new Set(['oddsSnapshots']) });
    const source = controllableSource();
    await shared.subscribe(args('1'), source.start);
    await shared.subscribe(args('2'), source.start);
    expect(source.state.started).toBe(2);
    const other = new SharedSubscriptions({ shareableFields: new Set(['liveTicker']) });
    await other.subscribe(args('1'), source.start);
    await other.subscribe(args('1'), source.start);
    expect(source.state.started).toBe(4);
  });
});

describe('pre-serialized payloads', () => {
  it('gives the bytes graphql-ws would have sent, from one serialization', () => {
    const result: ExecutionResult = { data: { oddsSnapshots: { matchId: 'm', price: 1.5 } } };
    const envelope = (payload: unknown) => JSON.stringify({ id: '7', type: 'next', payload }, preSerializedReplacer);
    const wrapped = preSerialize(result);
    expect(preSerialize(result)).toBe(wrapped);
    expect(restorePreSerialized(envelope(wrapped))).toBe(JSON.stringify({ id: '7', type: 'next', payload: result }));
  });

  it('gives the same message as UTF-8 bytes, whatever the id, with the payload encoded once', () => {
    const result: ExecutionResult = { data: { oddsSnapshots: { matchId: 'm', name: 'Zürich ✓' } } };
    const wrapped = preSerialize(result);
    for (const id of ['7', 'ü-1 ✓', 'a"b\\c']) {
      const message = JSON.stringify({ id, type: 'next', payload: wrapped }, preSerializedReplacer);
      const bytes = restorePreSerializedBytes(message);
      expect(bytes?.toString('utf8')).toBe(JSON.stringify({ id, type: 'next', payload: result }));
    }
    expect(wrapped.tail).toBe(wrapped.tail);
    expect(restorePreSerializedBytes(JSON.stringify({ id: '7', type: 'complete' }))).toBeUndefined();
  });

  it('sends a readable error, not a broken frame, for a placeholder it no longer knows', () => {
    const message = JSON.stringify({ id: '7', type: 'next', payload: '__sports_graph_preserialized_0__' });
    expect(JSON.parse(restorePreSerializedBytes(message)!.toString('utf8'))).toMatchObject({ type: 'error' });
  });

  it('never touches data that merely contains the placeholder text', () => {
    const other: ExecutionResult = { data: { x: 1 } };
    const wrapped = preSerialize(other);
    const message = JSON.stringify({ id: '1', type: 'next', payload: { data: { note: `"${wrapped.placeholder}"` } } });
    expect(restorePreSerialized(message)).toBe(message);
    const id = JSON.stringify({ id: `x"payload":"${wrapped.placeholder}"}`, type: 'complete' });
    expect(restorePreSerialized(id)).toBe(id);
  });
});

describe('a slow subscriber', () => {
  it('holds at most its queue of the newest results, however many arrive unread', async () => {
    const queue = new MemberQueue<number>(16, () => undefined);
    for (let i = 0; i < 10_000; i += 1) queue.push(i);
    const read: number[] = [];
    queue.end();
    for await (const value of queue) read.push(value);
    expect(read).toEqual(Array.from({ length: 16 }, (_, i) => 10_000 - 16 + i));
  });
});
