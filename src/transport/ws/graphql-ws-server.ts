/**
 * GraphQL over WebSocket (graphql-ws) on the gateway's ws server, yoga's
 * recipe: every operation runs through yoga's envelop pipeline, so plugins
 * (errors, trace, limits) apply on WebSocket as on HTTP.
 *
 * Three things make 10,000 subscribers of one match cheap:
 *
 * - subscribers of the same odds document and variables share one execution
 *   (shared-subscriptions.ts), whose results are serialized once
 *   (preserialized.ts) and, while a subscriber's graphql-ws loop is idle,
 *   written straight to its socket as one frame (direct-next.ts);
 * - an operation's context (its UpstreamLoader, the plugins' part) is built
 *   only when the operation itself executes: a subscriber that joins a
 *   shared execution never needs one;
 * - a consumer that does not read its socket is dropped past
 *   `maxWsBufferedBytes` (1013: try again later) rather than held.
 */
import {
  getOperationAST,
  GraphQLError,
  type DocumentNode,
  type ExecutionArgs,
  type FormattedExecutionResult,
} from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { WebSocket, WebSocketServer } from 'ws';
import type { ClientKeys } from '../../access/client-keys.js';
import { presentedKey } from '../../access/client-keys.js';
import { CloseCode } from '../../codes/close-codes.js';
import { Code } from '../../codes/error-codes.js';
import type { OperationLimits } from '../../config.js';
import type { OperationContext } from '../../context.js';
import { refuseControlPayload } from './ws-control-bounds.js';
import { inputRefusal, type InputBounds } from '../http/input-bounds.js';
import { inputRefusalError } from '../../plugins/use-input-bounds.js';
import type { PersistedOperations } from '../../plugins/use-persisted-operations.js';
import { withCodes } from '../../plugins/use-error-codes.js';
import { DirectNext } from './direct-next.js';
import { IdleSockets } from './idle-sockets.js';
import type { Logger } from 'pino';
import { serveOnWs } from './graphql-ws-on-ws.js';
import { preSerialize, preSerializedReplacer } from './preserialized.js';
import { SharedSubscriptions, type SubscribeResult } from './shared-subscriptions.js';

export interface GraphqlWsOptions {
  readonly wsServer: WebSocketServer;
  readonly yoga: YogaServerInstance<Record<string, unknown>, OperationContext>;
  readonly persisted: Pick<PersistedOperations, 'webSocketDocument'>;
  readonly clientKeys: ClientKeys;
  readonly inputBounds: InputBounds;
  readonly limits: Pick<OperationLimits, 'maxSubscriptionsPerSocket' | 'maxWsBufferedBytes'>;
  /** Where a socket's or a message handler's internal error is reported. */
  readonly logger: Logger;
  /**
   * A socket with no operation for this long is closed (src/transport/ws/idle-sockets.ts); 0 = never.
   * @default 60_000 (`WS_IDLE_TIMEOUT_MS`)
   */
  readonly idleTimeoutMs?: number;
  /** Ping interval of the keep-alive sweep (src/transport/ws/keep-alive.ts). @default 12_000 (`WS_KEEP_ALIVE_MS`) */
  readonly keepAliveMs?: number;
}

export interface GraphqlWs {
  /** Operations (queries and subscriptions) running on open WebSockets. */
  operations(): number;
  /** Closes every socket with 1001 Going Away (graphql-ws's own shutdown), then stops the WebSocket server. */
  dispose(): Promise<void>;
  /** Stops the slow-consumer check and the keep-alive sweep (their timers). */
  stop(): void;
}

type Enveloped = ReturnType<YogaServerInstance<Record<string, unknown>, OperationContext>['getEnveloped']>;

/**
 * One graphql-ws operation, as its `rootValue`: how to run it through
 * yoga's pipeline, and where its shared results may be written directly.
 */
class WsOperation {
  /** Dropped once the operation runs (`release`): graphql-ws keeps a subscription's arguments for as long as it lasts. */
  #enveloped: Enveloped | undefined;

  constructor(
    enveloped: Enveloped,
    /** Writes this subscriber's shared results straight to its socket (src/transport/ws/direct-next.ts). */
    readonly direct: DirectNext,
  ) {
    this.#enveloped = enveloped;
  }

  /** The arguments with this operation's context, built now: only an operation that executes pays for one. */
  async #withContext(args: ExecutionArgs): Promise<ExecutionArgs> {
    return { ...args, contextValue: await this.#pipeline().contextFactory() };
  }

  async execute(args: ExecutionArgs): Promise<SubscribeResult> {
    const pipeline = this.#pipeline();
    return (await pipeline.execute(await this.#withContext(args))) as SubscribeResult;
  }

  async subscribe(args: ExecutionArgs): Promise<SubscribeResult> {
    const pipeline = this.#pipeline();
    return (await pipeline.subscribe(await this.#withContext(args))) as SubscribeResult;
  }

  /** The operation started (or joined a shared execution): its pipeline is no longer needed. */
  release(): void {
    this.#enveloped = undefined;
  }

  #pipeline(): Enveloped {
    if (this.#enveloped === undefined) throw new Error('graphql-ws operation run twice');
    return this.#enveloped;
  }
}

const operationOf = (args: ExecutionArgs): WsOperation => args.rootValue as WsOperation;

export function serveGraphqlWs({
  wsServer,
  yoga,
  persisted,
  clientKeys,
  inputBounds,
  limits,
  logger,
  idleTimeoutMs = 60_000,
  keepAliveMs,
}: GraphqlWsOptions): GraphqlWs {
  const activeSubscriptions = new WeakMap<object, number>();
  const idleSockets = new IdleSockets(idleTimeoutMs);
  const leave = (socket: WebSocket): void => {
    const active = Math.max(0, (activeSubscriptions.get(socket) ?? 1) - 1);
    activeSubscriptions.set(socket, active);
    if (active === 0) idleSockets.idle(socket);
  };
  // A consumer that does not read its socket would make the gateway hold
  // every frame for it; past the bound it is dropped (1013: try again later).
  const slowConsumerCheck = setInterval(() => {
    for (const client of wsServer.clients) {
      if (client.bufferedAmount > limits.maxWsBufferedBytes) client.close(CloseCode.TryAgainLater, 'Slow consumer');
    }
  }, 1_000);
  slowConsumerCheck.unref();
  // Root fields whose results depend on their arguments alone: one execution serves every subscriber.
  // Not `liveTicker`: each subscriber passes the spend gate and may pay for polls (src/spend/poll-payers.ts).
  const sharedSubscriptions = new SharedSubscriptions({ shareableFields: new Set(['oddsSnapshots']) });

  // graphql-ws's makeServer on our own thin ws glue: it keeps neither the upgrade request nor a timer per socket (src/transport/ws/graphql-ws-on-ws.ts).
  const handle = serveOnWs<Record<string, unknown>>(
    {
      onConnect: (ctx) => {
        if (refuseControlPayload(ctx.extra.socket, ctx.connectionParams, inputBounds)) return false;
        if (!clientKeys.enabled) return true;
        const params = ctx.connectionParams ?? {};
        const fromParams = (name: string): string | undefined => {
          const value = params[name];
          return typeof value === 'string' ? value : undefined;
        };
        const key = presentedKey(fromParams) ?? presentedKey((name) => ctx.extra.request.headers[name]);
        // false closes the socket with 4403 Forbidden.
        return clientKeys.check(key).ok;
      },
      execute: (args: ExecutionArgs) =>
        operationOf(args)
          .execute(args)
          .finally(() => operationOf(args).release()),
      // Subscribers of the same odds document and variables share one
      // execution, whose results are written to them directly when they can be.
      subscribe: async (args: ExecutionArgs) => {
        const operation = operationOf(args);
        try {
          return await sharedSubscriptions.subscribe(args, (own) => operationOf(own).subscribe(own), operation.direct);
        } finally {
          operation.release();
        }
      },
      onSubscribe: async (ctx, id, payload) => {
        // Before anything walks them (the result-cache key, coercion): the same bounds as HTTP.
        const outOfBounds = inputRefusal(payload, inputBounds);
        if (outOfBounds !== undefined) return [inputRefusalError(outOfBounds)];
        // Counted before any await: subscriptions arriving together must not all see the old count.
        const active = activeSubscriptions.get(ctx.extra.socket) ?? 0;
        if (active >= limits.maxSubscriptionsPerSocket) {
          return [
            new GraphQLError('Too many subscriptions on this connection.', {
              extensions: { code: Code.TOO_MANY_SUBSCRIPTIONS },
            }),
          ];
        }
        activeSubscriptions.set(ctx.extra.socket, active + 1);
        idleSockets.busy(ctx.extra.socket);
        const refuse = (errors: readonly GraphQLError[]): GraphQLError[] => {
          leave(ctx.extra.socket);
          return withCodes(errors);
        };
        // Persisted operations: an ID becomes its text, trusted mode refuses other texts (src/plugins/use-persisted-operations.ts).
        const text = await persisted.webSocketDocument(payload);
        if (text instanceof GraphQLError) return refuse([text]);
        const params = { ...payload, query: text };
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, params });
        let document: DocumentNode;
        try {
          document = enveloped.parse(params.query);
        } catch (error) {
          if (error instanceof GraphQLError) return refuse([error]);
          throw error;
        }
        let errors: readonly GraphQLError[];
        try {
          errors = enveloped.validate(enveloped.schema, document);
        } catch (error) {
          // Some limit rules throw instead of reporting.
          if (error instanceof GraphQLError) return refuse([error]);
          throw error;
        }
        if (errors.length > 0) return refuse(errors);
        // graphql-ws keeps the subscribe message for as long as the subscription lasts. Its query text,
        // equal to the text the (cached) document was parsed from, becomes that one string: every
        // subscriber of the same document then holds the same text, not a copy of its own.
        const source = document.loc?.source.body;
        if (source !== undefined && typeof payload.query === 'string' && source === payload.query) {
          (payload as { query: string }).query = source;
        }
        // graphql-ws would answer this itself, uncoded: the same refusal and code yoga gives over HTTP.
        if (getOperationAST(document, payload.operationName ?? null) == null) {
          return refuse([
            new GraphQLError('Could not determine what operation to execute.', {
              extensions: { code: Code.OPERATION_RESOLUTION_FAILURE },
            }),
          ]);
        }
        const args: ExecutionArgs = {
          schema: enveloped.schema,
          operationName: payload.operationName ?? null,
          document,
          variableValues: payload.variables ?? null,
          // Built by WsOperation when the operation executes (never for a subscriber joining a shared execution).
          contextValue: undefined,
          rootValue: new WsOperation(enveloped, new DirectNext(ctx.extra.socket, ctx.extra.request.socket, id)),
        };
        return args;
      },
      // A shared result is serialized once for all its subscribers (src/transport/ws/preserialized.ts).
      onNext: (_ctx, _id, _payload, _args, result) =>
        sharedSubscriptions.isShared(result)
          ? (preSerialize(result) as unknown as FormattedExecutionResult)
          : undefined,
      jsonMessageReplacer: preSerializedReplacer,
      // A ping payload is echoed back with JSON.stringify: control messages are bounded as variables are (src/transport/ws/ws-control-bounds.ts).
      onPing: (ctx, payload) => {
        refuseControlPayload(ctx.extra.socket, payload, inputBounds);
      },
      onPong: (ctx, payload) => {
        refuseControlPayload(ctx.extra.socket, payload, inputBounds);
      },
      onComplete: (ctx) => leave(ctx.extra.socket),
    },
    wsServer,
    { logger, ...(keepAliveMs === undefined ? {} : { keepAliveMs }) },
  );
  wsServer.on('connection', (socket: WebSocket) => idleSockets.watch(socket));

  return {
    operations: () => {
      let count = 0;
      for (const client of wsServer.clients) count += activeSubscriptions.get(client) ?? 0;
      return count;
    },
    dispose: () => Promise.resolve(handle.dispose()),
    stop: () => {
      clearInterval(slowConsumerCheck);
      idleSockets.stop();
      handle.stop();
    },
  };
}
