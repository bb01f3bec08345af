import { Agent, request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { injectRequestTrace, REQUEST_ID_HEADER, requestTraceFields, TRACE_HEADERS, trackStream } from '@crewswap/kit';
import { isBodyTooLarge, refuse } from './body-limit';
import { isStream, ownerOf, type ServiceName } from './route-table';
import { isPage } from './security-headers';

/**
 * An answer up to this size is read whole and sent as one buffer: one write to the client, a
 * known length (so small answers are never compressed), and no stream to set up. Larger answers
 * (and answers without a length, like the event stream) are streamed through.
 */
export const WHOLE_BODY_MAX = 256 * 1024;

/** Kept-alive connections to each service for requests; more requests than this wait for a free one. */
const CONNECTIONS_PER_SERVICE = 64;

/**
 * Hop-by-hop headers describe one connection, not the request or answer: the gateway's connection
 * to a service is its own (kept alive, pooled). `host` names the gateway; the service's own is
 * sent. A length is sent again by whoever writes the body.
 */
const REQUEST_HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'expect', 'host']);
const ANSWER_HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/**
 * Passes `/api/*` on to the service that owns the path (a page it answers gets `pageHeaders`),
 * over a pool of kept-alive connections per service (undici): no new connection per request, no per-request proxy set-up.
 * An event stream holds its connection for its whole life, so streams go apart, each on a
 * connection of its own without a cap (node:http, whose client costs a stream less memory than
 * an undici client): in the capped pool, the 65th pilot's stream (and every request behind it)
 * would wait for one of the first 64 to end, which may be hours.
 */
export function registerProxy(app: FastifyInstance, services: Record<ServiceName, string>, pageHeaders: Record<string, string>): void {
  const pools = Object.fromEntries(
    Object.entries(services).map(([name, url]) => [name, new Pool(url, { connections: CONNECTIONS_PER_SERVICE, pipelining: 1 })]),
  ) as Record<ServiceName, Pool>;
  const streams = streamForwarder();
  // Before the server waits for open connections to finish: streams never finish on their own.
  // Cut, they end for the client, which reconnects to another replica.
  app.addHook('preClose', async () => streams.closeAll());
  app.addHook('onClose', async () => {
    await Promise.all(Object.values(pools).map((pool) => pool.close()));
  });

  // Bodies are passed on as they arrive, unread (the services parse them), whatever their type.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  // No span for the handler, nor one for the call to the service (main.ts): the request's edge
  // span says it all, and each further span cost CPU on every request.
  app.all('/api/*', async (request, reply) => {
    const service = ownerOf(request.url)!;
    const stream = isStream(request.url);
    const body = request.body as Readable | undefined;
    let answer: Answer;
    try {
      const options = {
        method: request.method as Dispatcher.HttpMethod,
        path: request.url,
        headers: forwardedHeaders(request, body !== undefined),
        body: body ?? null,
      };
      injectRequestTrace(request, options.headers);
      answer = stream ? await streams.forward(services[service], options) : await forward(pools[service], options);
    } catch (error) {
      return failed(request, reply, service, error);
    }
    reply.status(answer.statusCode);
    const headers = answer.headers;
    for (const name in headers) {
      if (!ANSWER_HOP_HEADERS.has(name)) reply.header(name, headers[name]!);
    }
    // A page a service serves (the digest's unsubscribe form) is a document: it gets the page set.
    if (isPage(headers['content-type'])) reply.headers(pageHeaders);
    // A 304 (a service's answer to If-None-Match, as the Master Calendar's) has no body: sent
    // without one, compression leaves it alone rather than gzip nothing and label the 304 gzip.
    if (answer.statusCode === 304) {
      if (answer.body instanceof Readable) answer.body.resume();
      return reply.send();
    }
    if (answer.body instanceof Readable && stream) {
      reply.header('x-accel-buffering', 'no').header('cache-control', 'no-cache');
      // Labelled by its path (the gateway's one route is /api/*); only paths realtime streams get here.
      if (answer.statusCode === 200) trackStream(request, reply, request.url.split('?')[0]);
    }
    return reply.send(answer.body);
  });
}

interface Answer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The whole body when it is small, else a stream of it. */
  body: Buffer | Readable;
}

/**
 * Event streams, each on a kept-alive connection of its own. The answer is passed to fastify as
 * it comes (node's IncomingMessage): fastify pipes it to the client, so a slow client pauses the
 * service's socket, and a client that leaves destroys it, which realtime sees as its stream
 * closing. The event stream has long quiet spells: no timeout.
 */
function streamForwarder() {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 64 });
  const open = new Set<ClientRequest>();
  return {
    forward(origin: string, options: { method: string; path: string; headers: Record<string, string | string[]>; body: Readable | null }): Promise<Answer> {
      return new Promise((resolve, reject) => {
        const url = new URL(options.path, origin);
        const outgoing = httpRequest(url, { method: options.method, headers: options.headers, agent }, (answer) => {
          answer.once('close', () => open.delete(outgoing));
          resolve({ statusCode: answer.statusCode ?? 502, headers: answer.headers, body: answer });
        });
        open.add(outgoing);
        outgoing.on('error', (error) => {
          open.delete(outgoing);
          reject(error);
        });
        if (options.body) options.body.pipe(outgoing);
        else outgoing.end();
      });
    },
    closeAll(): void {
      for (const outgoing of open) outgoing.destroy();
      open.clear();
      agent.destroy();
    },
  };
}

/**
 * One request to a service, dispatched on the pool with a handler of its own rather than through
 * undici's request(), which makes a stream of every body: a small answer is gathered as it
 * arrives and settles as one buffer; a large or open-ended one settles as soon as its headers
 * are in, as a stream that pauses the service while the client is slower.
 */
function forward(pool: Pool, options: Dispatcher.DispatchOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: IncomingHttpHeaders = {};
    let chunks: Buffer[] | undefined;
    let stream: PassThrough | undefined;
    pool.dispatch(options, {
      // Its presence tells undici this handler speaks the controller API.
      onRequestStart() {},
      onResponseStart(controller, status, answerHeaders) {
        statusCode = status;
        headers = answerHeaders;
        if (Number(answerHeaders['content-length'] ?? Number.NaN) <= WHOLE_BODY_MAX) {
          chunks = [];
          return;
        }
        const body = new PassThrough();
        stream = body;
        body.on('drain', () => controller.resume());
        // The client went away: stop reading the service's answer.
        body.on('close', () => {
          if (!body.writableFinished) controller.abort(new Error('The client closed the connection'));
        });
        resolve({ statusCode, headers, body });
      },
      onResponseData(controller, chunk) {
        if (chunks) chunks.push(chunk);
        else if (stream && !stream.write(chunk)) controller.pause();
      },
      onResponseEnd() {
        if (chunks) resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks) });
        else stream?.end();
      },
      onResponseError(_controller, error) {
        if (stream) stream.destroy(error);
        else reject(error);
      },
    });
  });
}

function forwardedHeaders(request: FastifyRequest, hasBody: boolean): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const incoming = request.headers;
  for (const name in incoming) {
    const value = incoming[name];
    if (value !== undefined && !REQUEST_HOP_HEADERS.has(name)) headers[name] = value;
  }
  // A GET is never read for a body, so a length it declares would promise bytes never sent.
  if (!hasBody) delete headers['content-length'];
  headers[REQUEST_ID_HEADER] = String(request.id);
  // The service continues the gateway's trace, never one a client named: the handler writes the
  // gateway's own context in after this.
  for (const name of TRACE_HEADERS) delete headers[name];
  // The client's address as the gateway judged it (TRUST_PROXY): services trust the gateway's
  // word, so an X-Forwarded-For a client wrote itself must not reach them.
  headers['x-forwarded-for'] = request.ip;
  return headers;
}

function failed(request: FastifyRequest, reply: FastifyReply, service: ServiceName, error: unknown): FastifyReply {
  // A client's body too large is its own mistake, not a service being down.
  if (isBodyTooLarge(error)) return refuse(reply);
  reply.log.warn({ err: error, service, ...requestTraceFields(request) }, 'upstream unavailable');
  return reply.status(503).send({ error: `The ${service} service is not available right now. Please try again shortly.` });
}
