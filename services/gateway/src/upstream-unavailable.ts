import { requestTraceFields } from '@crewswap/kit';
import type { FastifyReply } from 'fastify';
import { isBodyTooLarge, refuse } from './body-limit';
import type { ServiceName } from './route-table';

/**
 * What the client is told when a call to a service fails: a service that cannot be reached (or
 * fails mid-answer) is 503 naming it, and a client's body too large is its own mistake, not a
 * service being down.
 */
export function upstreamUnavailable(reply: FastifyReply, service: ServiceName, error: unknown): FastifyReply {
  if (isBodyTooLarge(error)) return refuse(reply);
  reply.log.warn({ err: error, service, ...requestTraceFields(reply.request) }, 'upstream unavailable');
  return reply.status(503).send({ error: `The ${service} service is not available right now. Please try again shortly.` });
}
