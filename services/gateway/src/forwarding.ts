import { Agent as HttpAgent, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { Readable } from 'node:stream';
import httpProxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyReplyFromHooks } from '@fastify/reply-from';
import { trackStream } from '@crewswap/kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forwardedAnswerHeaders, forwardedRequestHeaders } from './forwarded-headers';
import { neverReached, type Replicas } from './replicas';
import { ownerOf, STREAMS_PREFIX, type ServiceName } from './route-table';
import { upstreamUnavailable } from './upstream-unavailable';

/**
 * An answer up to this size is read whole and sent as one buffer: one write to the client, a
 * known length (so small answers are never compressed: compression gzips every stream, whatever
 * its size), and no stream to pipe. Larger answers (and answers without a length) are streamed.
 */
export const WHOLE_BODY_MAX = 256 * 1024;

/** Kept-alive connections to each service for requests; more requests than this wait for a free one. */
const CONNECTIONS_PER_SERVICE = 64;

/** A service's answer as @fastify/reply-from hands it over (its types call it a ServerResponse). */
interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  stream: Readable;
}

type SendAnswer = (request: FastifyRequest, reply: FastifyReply, answer: Answer) => void;

/**
 * Passes `/api/*` on to the service that owns the path (`route-table.ts`) with @fastify/http-proxy,
 * over a pool of kept-alive undici connections per service. An event stream holds its connection
 * for its whole life, so streams go apart, on a second instance over node:http with no cap: in
 * the capped pool the 65th pilot's stream (and every request behind it) would wait for one of the
 * first 64 to end, which may be hours; and per stream node:http costs the gateway less memory than
 * an undici client (docs/DECISIONS.md).
 * A service's replicas take requests in turn (`replicas.ts`); a request that never reached the one
 * it was sent to (refused: down or restarting) goes on to the next.
 */
export async function registerForwarding(app: FastifyInstance, services: Record<ServiceName, Replicas>, pageHeaders: Record<string, string>): Promise<void> {
  const streamAgent = { keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64 };
  const streamAgents = { 'http:': new HttpAgent(streamAgent), 'https:': new HttpsAgent(streamAgent) };
  // Before the server waits for open connections to finish: streams never finish on their own.
  // Cut, they end for the client, which reconnects to another replica.
  app.addHook('preClose', async () => {
    streamAgents['http:'].destroy();
    streamAgents['https:'].destroy();
  });

  // With one address per service (a cluster's Services, or `make up` without REPLICAS) there is
  // no other replica to go on to: the plain handler then forwards each request without the
  // per-request closures and copied options that going on to the next one needs.
  const anyReplicas = Object.values(services).some(({ urls }) => urls.length > 1);
  const handler: FastifyHttpProxyOptions['handler'] = (request, reply, dest, handlerOptions) => {
    const replicas = services[ownerOf(request.url)!];
    const tried = new Set<string>();
    const attempt = (url: string): FastifyReply => {
      tried.add(url);
      const onError: FastifyReplyFromHooks['onError'] = (errorReply, context) => {
        if (neverReached(context.error, request.body)) {
          replicas.refused(url);
          const next = replicas.next();
          if (!tried.has(next)) return void attempt(next);
        }
        handlerOptions.onError!(errorReply, context);
      };
      return reply.from(dest, { ...handlerOptions, getUpstream: () => url, onError });
    };
    return attempt(handlerOptions.getUpstream!(request, ''));
  };

  const options = (send: SendAnswer, timeout?: number): FastifyHttpProxyOptions => ({
    upstream: '',
    // Bodies go on as they arrive (parsed below); reply-from logs nothing of its own per request.
    proxyPayloads: false,
    disableRequestLogging: true,
    destroyAgent: true,
    ...(anyReplicas ? { handler } : {}),
    replyOptions: {
      getUpstream: (request) => services[ownerOf(request.url)!].next(),
      rewriteRequestHeaders: (request, headers) => forwardedRequestHeaders(request as FastifyRequest, headers as IncomingHttpHeaders),
      rewriteHeaders: (headers) => forwardedAnswerHeaders(headers as IncomingHttpHeaders, pageHeaders),
      onResponse: (request, reply, answer) => send(request as FastifyRequest, reply as FastifyReply, answer as unknown as Answer),
      onError: (reply, { error }) => void upstreamUnavailable(reply as FastifyReply, ownerOf(reply.request.url)!, error),
      // A service's own 503 (its database is down) is its answer, passed on once: reply-from would
      // ask again up to 10 times for a GET, adding load to a service that is struggling already.
      retryDelay: () => null,
      ...(timeout === undefined ? {} : { timeout }),
    },
  });

  await app.register(async (api) => {
    // Bodies are passed on unread (the services parse them), whatever their type.
    api.removeAllContentTypeParsers();
    api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    await api.register(httpProxy, {
      ...options(sendAnswer),
      prefix: '/api',
      rewritePrefix: '/api',
      // reply-from switches off checking a service's certificate unless told (here and below).
      undici: { connections: CONNECTIONS_PER_SERVICE, pipelining: 1, connect: { rejectUnauthorized: true } },
    });
    await api.register(httpProxy, {
      // The event stream has long quiet spells: no timeout.
      ...options(sendStream, 0),
      prefix: STREAMS_PREFIX,
      rewritePrefix: STREAMS_PREFIX,
      http: { agents: streamAgents, requestOptions: { rejectUnauthorized: true } },
    });
  });
}

function sendAnswer(request: FastifyRequest, reply: FastifyReply, { statusCode, headers, stream }: Answer): void {
  // A 304 (a service's answer to If-None-Match, as the Master Calendar's) has no body: sent
  // without one, compression leaves it alone rather than gzip nothing and label the 304 gzip.
  if (statusCode === 304) {
    stream.resume();
    void reply.send();
    return;
  }
  if (!(Number(headers['content-length'] ?? Number.NaN) <= WHOLE_BODY_MAX)) {
    void reply.send(stream);
    return;
  }
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.once('end', () => void reply.send(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
  stream.once('error', (error) => {
    // Nothing is sent yet: the client gets the 503, without the headers of the answer that broke off.
    for (const name in headers) reply.removeHeader(name);
    upstreamUnavailable(reply, ownerOf(request.url)!, error);
  });
}

function sendStream(request: FastifyRequest, reply: FastifyReply, { statusCode, stream }: Answer): void {
  reply.header('x-accel-buffering', 'no').header('cache-control', 'no-cache');
  // Counted as a stream, not as a request that takes for ever; labelled by its path.
  if (statusCode === 200) trackStream(request, reply, request.url.split('?')[0]);
  void reply.send(stream);
}
