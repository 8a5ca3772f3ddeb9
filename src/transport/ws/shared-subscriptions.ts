/**
 * One execution per distinct subscription, shared by every subscriber that
 * sent the same document with the same variables.
 *
 * The odds hub already shares one upstream feed and one frozen snapshot per
 * match, but GraphQL still executed the selection once per subscriber: 10,000
 * subscribers meant 10,000 resolver runs and 10,000 result objects per frame.
 * Here the first subscriber's operation is executed and each of its results
 * is handed, as the same object, to every subscriber of the same (document,
 * operation name, variables); `serializedPayload` then turns that object into
 * JSON once for all of them.
 *
 * Only root fields listed as shareable take part: their results depend on
 * their arguments alone, never on who asks (no per-client context, no
 * per-client cost). Everything else runs per subscriber as before.
 *
 * Timing: a subscriber joining a running source gets the source's latest
 * result at once (the semantics of "the latest snapshot at once, then every
 * frame"), then every later one. A slow subscriber's queue keeps the newest
 * `queue` results (older ones are dropped, as the odds resolver's own
 * SlidingBuffer did). The source's execution is stopped when its last
 * subscriber leaves.
 *
 * Delivery: a subscriber may bring its own way to deliver (a `Delivery`,
 * src/transport/ws/direct-next.ts writes the frame straight to its socket). It is
 * offered a result only while the subscriber's reader (graphql-ws's loop)
 * waits with nothing queued, so everything the reader still has to send
 * goes first, and the end or an error reaches the reader after every
 * result delivered before it.
 */
import { getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';

export type SubscribeResult = AsyncIterable<ExecutionResult> | ExecutionResult;
type Start = (args: ExecutionArgs) => SubscribeResult | Promise<SubscribeResult>;
/** A subscriber's own way to deliver a result, bypassing its iterator (src/transport/ws/direct-next.ts). */
export interface Delivery<T = ExecutionResult> {
  /**
   * Delivers `result` and returns true, or returns false when the
   * subscriber's own loop must send it. Asked only while that loop waits
   * with nothing queued.
   */
  write(result: T): boolean;
}

export interface SharedSubscriptionsOptions {
  /** Root subscription fields whose results depend only on their arguments. */
  readonly shareableFields: ReadonlySet<string>;
  /** Results queued per slow subscriber before the oldest is dropped. @default 16 */
  readonly queue?: number;
}

class Source {
  constructor(
    /** Removes this source from the map: called as soon as it must take no new member. */
    readonly forget: () => void,
  ) {}

  readonly members = new Set<MemberQueue>();
  latest: ExecutionResult | undefined;
  iterator: AsyncIterator<ExecutionResult> | undefined;
  /** Resolves to the execution's iterable, or to the single result that refused it. */
  started: Promise<SubscribeResult> | undefined;
}

export class SharedSubscriptions {
  /** Results handed to several subscribers: worth serializing once (preserialized.ts). */
  readonly #shared = new WeakSet<object>();
  readonly #shareable: ReadonlySet<string>;
  readonly #queue: number;
  /** Keyed by the parsed document (yoga's parse cache returns one object per query text), then by name + variables. */
  readonly #sources = new WeakMap<DocumentNode, Map<string, Source>>();

  constructor(options: SharedSubscriptionsOptions) {
    this.#shareable = options.shareableFields;
    this.#queue = options.queue ?? 16;
  }

  /**
   * Subscribes through a shared source when the operation is shareable, else
   * runs `start` as is. `delivery`, when given, is offered each shared result
   * while the subscriber waits for one (the first one, the source's latest,
   * is always returned by the iterator).
   */
  subscribe(args: ExecutionArgs, start: Start, delivery?: Delivery): SubscribeResult | Promise<SubscribeResult> {
    const key = this.#keyOf(args);
    if (key === undefined) return start(args);
    let byKey = this.#sources.get(args.document);
    if (byKey === undefined) {
      byKey = new Map();
      this.#sources.set(args.document, byKey);
    }
    let source = byKey.get(key);
    if (source === undefined) {
      const map = byKey;
      const created = new Source(() => {
        if (map.get(key) === created) map.delete(key);
      });
      source = created;
      map.set(key, created);
      created.started = Promise.resolve(start(args)).then((result) => {
        if (!isAsyncIterable(result)) {
          // Refused (validation, argument or resolver error): nothing to share.
          created.forget();
          return result;
        }
        void this.#pump(created, result);
        return result;
      });
      created.started.catch(() => created.forget());
    }
    return this.#join(source, delivery);
  }

  /** True for a result that a shared source delivered. */
  isShared(result: object): boolean {
    return this.#shared.has(result);
  }

  async #join(source: Source, delivery: Delivery | undefined): Promise<SubscribeResult> {
    const started = await source.started;
    if (started === undefined || !isAsyncIterable(started)) return started ?? { errors: [] };
    // Registered at once (not when first iterated), so that a subscriber
    // that leaves before reading still leaves, and the source can stop.
    const member = new MemberQueue(
      this.#queue,
      () => {
        source.members.delete(member);
        if (source.members.size === 0) {
          // Forgotten before the execution is stopped: a subscriber arriving now starts a new one.
          source.forget();
          void source.iterator?.return?.();
        }
      },
      delivery,
    );
    source.members.add(member);
    if (source.latest !== undefined) member.push(source.latest);
    return member;
  }

  async #pump(source: Source, iterable: AsyncIterable<ExecutionResult>): Promise<void> {
    const iterator = iterable[Symbol.asyncIterator]();
    source.iterator = iterator;
    try {
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        source.latest = next.value;
        this.#shared.add(next.value);
        deliver(source.members, next.value);
      }
      source.forget();
      for (const member of source.members) member.end();
    } catch (error) {
      source.forget();
      for (const member of source.members) member.end(error);
    }
  }

  /** The sharing key, or undefined when the operation is not shareable. */
  #keyOf(args: ExecutionArgs): string | undefined {
    const operation = getOperationAST(args.document, args.operationName);
    if (operation === null || operation === undefined || operation.operation !== 'subscription') return undefined;
    for (const selection of operation.selectionSet.selections) {
      if (selection.kind !== 'Field' || !this.#shareable.has(selection.name.value)) return undefined;
    }
    return `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}`;
  }
}

/**
 * One result to every member, outside `#pump`: `#pump` is an async function
 * entered once per source, so a loop in its body is never optimized as a
 * function called per result is (Node 20, 10,000 members: the loop in the
 * async body still took 50-400 µs per result after 30 results, the same
 * loop here about 20 µs from the tenth on). In the gateway's profile of a
 * 10,000-subscriber frame, `#pump`'s own time was 4-8 ms of a 15-30 ms gap
 * to the floor.
 */
function deliver(members: ReadonlySet<MemberQueue>, result: ExecutionResult): void {
  for (const member of members) member.push(result);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/**
 * One subscriber's view of a source: a bounded queue that keeps the newest
 * results (a slow reader skips to the latest rather than holding every
 * frame), as a plain async iterator (lighter than a Repeater per subscriber,
 * which matters at 10,000 subscribers). Also what the odds resolvers return:
 * unlike a Repeater, whose executor runs only on the first `next()`, it
 * listens from the moment it is made, so their feed is opened (and its caps
 * checked) inside the subscribe resolver, and `return()` always stops it.
 */
export class MemberQueue<T = ExecutionResult> implements AsyncIterableIterator<T> {
  readonly #buffer: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #done = false;
  #error: unknown;

  constructor(
    private readonly size: number,
    private readonly onLeave: () => void,
    /**
     * Offered a result while the reader waits with nothing queued: when it
     * delivers the result itself, the reader goes on waiting. Anything else
     * (queued results, the end) still reaches the reader, in order.
     */
    private readonly delivery?: Delivery<T>,
  ) {}

  push(result: T): void {
    if (this.#done) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      if (this.delivery?.write(result) === true) return;
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      waiting({ value: result, done: false });
      return;
    }
    this.#buffer.push(result);
    if (this.#buffer.length > this.size) this.#buffer.shift();
  }

  /** The source ended (or failed): what is queued is still delivered, then the end. */
  end(error?: unknown): void {
    if (this.#done) return;
    this.#done = true;
    this.#error = error;
    const waiting = this.#waiting;
    const fail = this.#failWaiting;
    this.#waiting = undefined;
    this.#failWaiting = undefined;
    if (error !== undefined) fail?.(error);
    else waiting?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<T>> {
    const queued = this.#buffer.shift();
    if (queued !== undefined) return Promise.resolve({ value: queued, done: false });
    if (this.#done) {
      if (this.#error !== undefined) {
        const error = this.#error;
        this.#error = undefined;
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    if (!this.#done) {
      this.#done = true;
      this.#buffer.length = 0;
      this.#waiting?.({ value: undefined, done: true });
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      this.onLeave();
    }
    return Promise.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }
}
