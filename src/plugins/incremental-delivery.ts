/**
 * `@defer` and `@stream` (incremental delivery) through
 * @graphql-yoga/plugin-defer-stream: the directives are added to the schema
 * and yoga's executor (@graphql-tools/executor) answers such an operation
 * as a stream of payloads, over multipart HTTP (`accept: multipart/mixed`)
 * or SSE (`accept: text/event-stream`).
 *
 * Where it helps: fields that wait on several upstream requests while the
 * rest of the answer is ready, e.g. a hockey team's `seasonAggregates`
 * (two requests per finished match), long paged lists (`recentResults`,
 * `@stream` over their `nodes`) and image metadata (`logo`, which may walk
 * the V1 -> V2 -> V6 chain).
 *
 * What the other plugins do with such an operation:
 * - the cost estimate runs before execution and counts deferred fields like
 *   any other (they are executed, only later);
 * - the trace plugin settles the client's budget and writes
 *   `extensions.cost` on the last payload (src/plugins/use-upstream-trace.ts);
 * - the result cache never stores a stream (src/plugins/use-result-cache.ts);
 * - graphql-jit does not implement the directives: such documents run on
 *   yoga's executor (src/plugins/use-jit.ts).
 */
import { BREAK, GraphQLError, Kind, visit, type DocumentNode } from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import type { GatewayContext } from '../context.js';

const verdicts = new WeakMap<DocumentNode, boolean>();

/** True when the document uses `@defer` or `@stream` anywhere (parsed documents are reused by yoga's cache). */
export function usesIncrementalDelivery(document: DocumentNode): boolean {
  let verdict = verdicts.get(document);
  if (verdict === undefined) {
    let found = false;
    visit(document, {
      [Kind.DIRECTIVE](node) {
        if (node.name.value === 'defer' || node.name.value === 'stream') {
          found = true;
          return BREAK;
        }
        return undefined;
      },
    });
    verdict = found;
    verdicts.set(document, verdict);
  }
  return verdict;
}

/** The media types yoga streams payloads in (its multipart and SSE result processors). */
const streamingTypes = ['multipart/mixed', 'text/event-stream'];

/**
 * True when `accept` lets yoga stream the answer. Mirrors yoga's
 * result-processor/accept.js: utf-8 only, wildcards match, no header is `*\/*`.
 */
export function acceptsIncremental(accept: string | null | undefined): boolean {
  const asked = (accept === null || accept === undefined || accept === '' ? '*/*' : accept)
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',');
  return asked.some((entry) => {
    const [mediaType = '', ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') return false;
    const [pre, suf] = mediaType.split('/');
    return streamingTypes.some((type) => {
      const [typePre, typeSuf] = type.split('/');
      return (pre === '*' || pre === typePre) && (suf === '*' || suf === typeSuf);
    });
  });
}

/**
 * @graphql-yoga/plugin-defer-stream with its `onValidate` handed an empty
 * `rules`: the hook filters graphql-js's OverlappingFieldsCanBeMergedRule
 * out of `params.rules` by name, but envelop builds a new `params` for each
 * hook and validates with its own list, so only the hook's
 * `addValidationRule` calls ever counted. Walking the ~30 rules' names for
 * nothing was about half a per cent of an executed operation's CPU.
 */
function useDeferStreamDirectives(): Plugin {
  const plugin: Plugin = useDeferStream();
  const { onValidate } = plugin;
  if (onValidate === undefined) return plugin;
  return { ...plugin, onValidate: (payload) => onValidate({ ...payload, params: { ...payload.params, rules: [] } }) };
}

export function useIncrementalDelivery(): [Plugin, Plugin<GatewayContext>] {
  // yoga would execute the operation (and spend its upstream requests) before finding that it cannot send a stream.
  const refuseUnstreamable: Plugin<GatewayContext> = {
    onExecute({ args, setResultAndStopExecution }) {
      const request = args.contextValue.request as Request | undefined;
      if (
        request === undefined ||
        !usesIncrementalDelivery(args.document) ||
        acceptsIncremental(request.headers.get('accept'))
      )
        return;
      setResultAndStopExecution({
        errors: [
          new GraphQLError(
            'This operation uses @defer or @stream, whose answer comes in parts: send `accept: multipart/mixed` (or `text/event-stream`), or drop the directives.',
            { extensions: { code: Code.NOT_ACCEPTABLE, http: { status: 406 } } },
          ),
        ],
      });
    },
  };
  return [useDeferStreamDirectives(), refuseUnstreamable];
}
