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
 * frame"), then every later one. A slow subscriber's queue
 * (src/streams/member-queue.ts) keeps the newest `queue` results (older
 * ones are dropped, as the odds resolver's own SlidingBuffer did). The
 * source's execution is stopped when its last subscriber leaves.
 *
 * Delivery: a subscriber may bring its own way to deliver (a `Delivery`,
 * src/transport/ws/direct-next.ts writes the frame straight to its socket). It is
 * offered a result only while the subscriber's reader (graphql-ws's loop)
 * waits with nothing queued, so everything the reader still has to send
 * goes first, and the end or an error reaches the reader after every
 * result delivered before it.
 */
import { getOperationAST, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { MemberQueue, type Delivery } from '../../streams/member-queue.js';

export type SubscribeResult = AsyncIterable<ExecutionResult> | ExecutionResult;
type Start = (args: ExecutionArgs) => SubscribeResult | Promise<SubscribeResult>;
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

  readonly members = new Set<MemberQueue<ExecutionResult>>();
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
  subscribe(
    args: ExecutionArgs,
    start: Start,
    delivery?: Delivery<ExecutionResult>,
  ): SubscribeResult | Promise<SubscribeResult> {
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

  async #join(source: Source, delivery: Delivery<ExecutionResult> | undefined): Promise<SubscribeResult> {
    const started = await source.started;
    if (started === undefined || !isAsyncIterable(started)) return started ?? { errors: [] };
    // Registered at once (not when first iterated), so that a subscriber
    // that leaves before reading still leaves, and the source can stop.
    const member = new MemberQueue<ExecutionResult>(
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
function deliver(members: ReadonlySet<MemberQueue<ExecutionResult>>, result: ExecutionResult): void {
  for (const member of members) member.push(result);
}

function isAsyncIterable(value: unknown): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
