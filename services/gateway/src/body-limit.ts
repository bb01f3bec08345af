import type { Socket } from 'node:net';
import { Transform, type TransformCallback } from 'node:stream';
import { HttpError } from '@crewswap/kit';
import { ROSTER_FILE_TOO_LARGE } from '@crewswap/proto';
import type { FastifyInstance, FastifyReply, RawServerBase, RouteGenericInterface } from 'fastify';
import { bodyLimitOf } from './route-table';

export const BODY_TOO_LARGE = 'Request body too large';

/**
 * What a refused body is told: the roster upload answers as roster-ingest does for a file over
 * 10 MB (`{error, message}` in the spec's words, which the app shows), anything else generically.
 */
export function tooLargeAnswer(url: string): { error: string; message?: string } {
  const path = url.split('?')[0] ?? '';
  if (path === '/api/roster/upload') return { error: ROSTER_FILE_TOO_LARGE, message: ROSTER_FILE_TOO_LARGE };
  return { error: BODY_TOO_LARGE };
}

/**
 * How long a refused connection is still read (and the bytes dropped) after the 413 is written.
 * Closing a socket that has unread bytes sends a reset, and a reset can make the client drop the
 * 413 it has not read yet; so the gateway closes its side, reads what is still in flight for a
 * moment, then closes for good (the "lingering close" of nginx and Apache).
 */
const LINGER_MS = 2_000;

/** Connections refused a body, read until they close and never served again. */
const closing = new WeakSet<Socket>();

/** Raised by the byte counter of a body without a declared length (chunked). */
class BodyTooLargeError extends HttpError {
  constructor() {
    super(413, BODY_TOO_LARGE);
  }
}

/** True when the proxy failed because the counter stopped a body above its route's limit. */
export function isBodyTooLarge(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof BodyTooLargeError) return true;
  }
  return false;
}

/**
 * Refuses a body above its route's limit before it reaches a service: a declared Content-Length
 * is checked as soon as the headers arrive, a chunked body is counted as it streams through.
 * Either way the answer is 413 and the connection is closed, since the rest of the body is still
 * on its way and would otherwise be read as the next request.
 */
export function limitBodies(app: FastifyInstance): void {
  // Node answers `Expect: 100-continue` on its own, inviting the body first; hold the invitation
  // back from a body already known to be too large, so the client need not send it at all.
  app.server.on('checkContinue', (request, response) => {
    if (!declaredTooLarge(request.url ?? '', request.headers['content-length'])) response.writeContinue();
    app.server.emit('request', request, response);
  });

  // Hooks in callback form: every request runs them, and an async hook costs a promise each time.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing.has(request.raw.socket)) {
      // The client sent another request behind a refused body: its connection is closing, and
      // an answer written now would go nowhere.
      request.log.info({ url: request.url }, 'request on a closing connection not served');
      reply.hijack();
      return done();
    }
    if (declaredTooLarge(request.url, request.headers['content-length'])) return void refuse(reply);
    done();
  });

  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] === undefined) return done(null, payload);
    // pipe, not pipeline: an error in the counter must not destroy the request, whose socket
    // still has to carry the 413. pipe passes no abort on, so a client gone mid-body ends the
    // counter (and the upstream request reading it) here.
    const counter = new ByteCounter(bodyLimitOf(request.url));
    request.raw.once('close', () => {
      if (!request.raw.complete) counter.destroy(new Error('The client closed the connection before sending the whole body'));
    });
    done(null, payload.pipe(counter));
  });
}

/** Answers 413 and closes the connection once the answer is out (lingering, see LINGER_MS). */
export function refuse<Server extends RawServerBase>(reply: FastifyReply<RouteGenericInterface, Server>): FastifyReply<RouteGenericInterface, Server> {
  const { request } = reply;
  request.log.info({ url: request.url, contentLength: request.headers['content-length'] }, 'request body too large');
  closing.add(request.raw.socket);
  lingerOnClose(request.raw.socket);
  // The rest of the body is read and dropped until the socket closes.
  request.raw.resume();
  return reply.status(413).header('connection', 'close').send(tooLargeAnswer(request.url));
}

function declaredTooLarge(url: string, contentLength: string | undefined): boolean {
  return contentLength !== undefined && Number(contentLength) > bodyLimitOf(url);
}

/** Node closes a `Connection: close` socket with destroySoon() once the answer is written. */
function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function destroySoon(this: Socket) {
    this.end();
    setTimeout(() => this.destroy(), LINGER_MS).unref();
  };
}

class ByteCounter extends Transform {
  private received = 0;

  constructor(private readonly limit: number) {
    super();
  }

  // fastify reads this from a stream returned by a preParsing hook.
  get receivedEncodedLength(): number {
    return this.received;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.received += chunk.length;
    if (this.received > this.limit) return done(new BodyTooLargeError());
    done(null, chunk);
  }
}
