/**
 * Refuses, with 400 and a coded error, an HTTP operation (GET, POST, SSE)
 * whose `variables` or `extensions` are past the bounds of
 * src/transport/http/input-bounds.ts, before any other plugin or graphql-js walks
 * them. First in the plugin list (src/plugins/pipeline.ts) so its `onParams` runs
 * before every other one.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { inputRefusal, type InputBounds, type InputRefusal } from '../transport/http/input-bounds.js';

/** The refusal as the GraphQL error every door answers with (graphql-ws too). */
export function inputRefusalError(refusal: InputRefusal): GraphQLError {
  return new GraphQLError(refusal.message, { extensions: { code: refusal.code, http: { status: 400 } } });
}

export function useInputBounds(bounds: InputBounds): Plugin {
  return {
    onParams({ params, setResult }) {
      const refusal = inputRefusal(params, bounds);
      if (refusal !== undefined) setResult({ errors: [inputRefusalError(refusal)] });
    },
  };
}
