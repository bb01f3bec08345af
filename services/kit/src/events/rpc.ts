import { RpcError } from '@crewswap/proto';
import { type Msg, type Subscription } from 'nats';
import type { Logger } from 'pino';
import type { z } from 'zod';
import { HttpError, unavailable, unreachableDependency } from '../http/errors';
import type { Bus } from './nats';
import { inSpan, SpanKind, traceHeaders, withMessageContext } from '../observability/tracing';

/**
 * Answers `<service>.rpc.<name>` requests. Replicas join one queue group, so each request is
 * answered once. A bad request or a failure is answered with `{error, status}`, never silence.
 */
export function serveRpc<Req extends z.ZodType, Res>(options: {
  bus: Bus;
  log: Logger;
  subject: string;
  request: Req;
  handle: (input: z.output<Req>) => Promise<Res>;
}): Subscription {
  const { bus, log } = options;
  return bus.nc.subscribe(bus.subject(options.subject), {
    queue: options.subject,
    callback: (error, message: Msg) => {
      if (error) {
        log.error({ err: error }, 'rpc subscription failed');
        return;
      }
      // The caller's trace continues here (its context is in the request's headers).
      void withMessageContext(message.headers, `serve ${options.subject}`, async () => {
        try {
          const input = options.request.safeParse(message.data.length ? message.json() : {});
          if (!input.success) {
            message.respond(JSON.stringify({ error: input.error.issues[0]?.message ?? 'Invalid request', status: 400 }));
            return;
          }
          const result = await options.handle(input.data);
          message.respond(JSON.stringify(result));
        } catch (failure) {
          // The database going away mid-request (a failed COMMIT in a restart) is an outage the caller waits out, not a bug.
          const dependency = failure instanceof HttpError ? undefined : unreachableDependency(failure);
          const status = failure instanceof HttpError ? failure.status : dependency ? 503 : 500;
          if (status >= 500) log.error({ err: failure, subject: options.subject, ...(dependency ? { dependency } : {}) }, 'rpc handler failed');
          const error =
            status < 500 || failure instanceof HttpError
              ? (failure as Error).message
              : status === 503
                ? `The ${options.subject.split('.')[0]} service is not available right now. Please try again shortly.`
                : 'Internal error';
          message.respond(JSON.stringify({ error, status }));
        }
      }, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'nats', 'rpc.method': options.subject } });
    },
  });
}

/**
 * Asks another service and checks its answer. When nobody answers in time the caller gets a 503
 * that says which service is unavailable, not a hang.
 */
export async function requestRpc<Res extends z.ZodType>(
  bus: Bus,
  subject: string,
  body: unknown,
  reply: Res,
  timeoutMs = 5000,
): Promise<z.output<Res>> {
  const service = subject.split('.')[0];
  let message: Msg;
  try {
    message = await inSpan(`rpc ${subject}`, () => bus.nc.request(bus.subject(subject), JSON.stringify(body), { timeout: timeoutMs, headers: traceHeaders() }), {
      kind: SpanKind.CLIENT,
      attributes: { 'rpc.system': 'nats', 'rpc.method': subject },
    });
  } catch (error) {
    // Too large is the request's own fault and will never go through; anything else (no responder, timeout) is an outage.
    if ((error as { code?: unknown }).code === 'MAX_PAYLOAD_EXCEEDED') throw new HttpError(413, `The request is too large to send to the ${service} service.`);
    throw unavailable(`The ${service} service is not available right now. Please try again shortly.`);
  }
  const json: unknown = message.json();
  const failed = RpcError.safeParse(json);
  if (failed.success) throw new HttpError(failed.data.status, failed.data.error);
  return reply.parse(json);
}
