/**
 * yoga answers some refusals with a status and no body: 404 for a path it
 * does not serve, 406 for an `accept` it cannot answer, 415 for a body type
 * it cannot read, and `/healthz` a 405 for a method other than GET or HEAD. They get a coded JSON body like every other refusal
 * (src/transport/http/refusal.ts), so a client always has a code to match on.
 */
import type { Plugin } from 'graphql-yoga';
import { Code } from '../codes/error-codes.js';
import { refusalBody, type Refusal } from '../transport/http/refusal.js';

const bodiless: Readonly<Record<number, Refusal>> = {
  404: { status: 404, code: Code.NOT_FOUND, message: 'Nothing is served at this path.' },
  405: { status: 405, code: Code.METHOD_NOT_ALLOWED, message: 'This path does not answer this method.' },
  406: {
    status: 406,
    code: Code.NOT_ACCEPTABLE,
    message: 'None of the media types in `accept` can carry this answer.',
  },
  415: {
    status: 415,
    code: Code.UNSUPPORTED_MEDIA_TYPE,
    message: 'The request body has a content type the gateway cannot read.',
  },
};

export function useCodedRefusals(): Plugin {
  return {
    onResponse({ request, response, setResponse, fetchAPI }) {
      const refusal = bodiless[response.status];
      if (refusal === undefined || response.body !== null) return;
      const headers = new fetchAPI.Headers(response.headers);
      headers.set('content-type', 'application/json; charset=utf-8');
      const url = new fetchAPI.URL(request.url);
      setResponse(
        new fetchAPI.Response(refusalBody(`${url.pathname}${url.search}`, refusal), {
          status: refusal.status,
          headers,
        }),
      );
    },
  };
}
