import type { IncomingHttpHeaders } from 'node:http';
import { injectRequestTrace, REQUEST_ID_HEADER, TRACE_HEADERS } from '@crewswap/kit';
import type { FastifyRequest } from 'fastify';
import { isPage } from './security-headers';

/**
 * Hop-by-hop headers describe one connection, not the request or answer: the gateway's connection
 * to a service is its own (kept alive, pooled). @fastify/reply-from drops `connection` and the
 * headers it names; the rest are dropped here (undici refuses `expect`, `upgrade` and
 * `keep-alive` outright, which would turn a client's harmless header into a 503).
 */
const REQUEST_HOP_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect'];
/** The answer keeps its length: a body read whole or streamed through is the same bytes. */
const ANSWER_HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding'];

/** The headers a request goes on to its service with (reply-from's copy of the client's, changed in place). */
export function forwardedRequestHeaders(request: FastifyRequest, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  for (const name of REQUEST_HOP_HEADERS) delete headers[name];
  // A GET is never read for a body, so a length it declares would promise bytes never sent.
  if (request.body === undefined) delete headers['content-length'];
  headers[REQUEST_ID_HEADER] = String(request.id);
  // The service continues the gateway's trace, never one a client named.
  for (const name of TRACE_HEADERS) delete headers[name];
  injectRequestTrace(request, headers as Record<string, string | string[]>);
  // The client's address as the gateway judged it (TRUST_PROXY): services trust the gateway's
  // word, so an X-Forwarded-For a client wrote itself must not reach them.
  headers['x-forwarded-for'] = request.ip;
  return headers;
}

/**
 * The headers a service's answer goes on to the client with (changed in place). A page a service
 * serves (the digest's unsubscribe form) is a document: it gets the page set in place of the API
 * set the request started with.
 */
export function forwardedAnswerHeaders(headers: IncomingHttpHeaders, pageHeaders: Record<string, string>): IncomingHttpHeaders {
  for (const name of ANSWER_HOP_HEADERS) delete headers[name];
  return isPage(headers['content-type']) ? Object.assign(headers, pageHeaders) : headers;
}
