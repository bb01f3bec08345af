import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * What a client may send in headers: the gateway holds the public edge to Node's 16 KB; a service
 * takes twice that, so a request the gateway let through is never refused behind it for the few
 * headers the gateway adds (trace context, request id, forwarded address).
 */
export const EDGE_MAX_HEADER_BYTES = 16 * 1024;
export const SERVICE_MAX_HEADER_BYTES = 2 * EDGE_MAX_HEADER_BYTES;

export const HEADERS_TOO_LARGE_MESSAGE = 'The request headers are too large (at most 16 KB). Clear this site\'s cookies and try again.';
const BAD_REQUEST_MESSAGE = 'The request could not be read as HTTP.';
const TIMEOUT_MESSAGE = 'The request took too long to arrive.';

/** How long the rest of a refused request is read and thrown away, so the answer reaches the client. */
const DRAIN_MS = 2000;

/**
 * Answers a request Node could not parse (headers past the limit, broken framing, too slow) in
 * the house's JSON shape, then closes the connection gracefully. Fastify's own handler destroys
 * the socket at once: with part of a large header still unread, the kernel answers with a reset,
 * and the client sees a dropped connection instead of the 431 that says what to fix.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW' ? [431, HEADERS_TOO_LARGE_MESSAGE] : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? [408, TIMEOUT_MESSAGE] : [400, BAD_REQUEST_MESSAGE];
  this.log.info({ code: error.code, status }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: message });
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  // Whatever the client is still sending is read and dropped until it has our answer and closes.
  socket.on('data', () => undefined);
  socket.resume();
  const stop = setTimeout(() => socket.destroy(), DRAIN_MS);
  stop.unref();
  socket.once('close', () => clearTimeout(stop));
}
