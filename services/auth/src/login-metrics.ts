import { HttpError } from '@crewswap/kit';
import type { FastifyInstance } from 'fastify';
import { Counter } from 'prom-client';

const LOGIN_ROUTE = '/api/auth/login';

/**
 * Counts refused pilot logins for the dashboards and alerts, read from the answer login gives
 * (its flags are the spec's error catalogue), so the login rules stay free of metrics:
 * `invalid` a wrong email or password, `password_reset` the 5th failure that mails a temporary
 * password (the spec's lockout), `locked` a refusal while a second round of failures has the
 * account locked (the locking attempt included).
 */
export function countLoginOutcomes(app: FastifyInstance): void {
  const failures = new Counter({
    name: 'auth_login_failures_total',
    help: 'Refused pilot logins by reason (invalid, password_reset, locked)',
    labelNames: ['reason'] as const,
    registers: [app.metrics.registry],
  });
  for (const reason of ['invalid', 'password_reset', 'locked']) failures.inc({ reason }, 0);
  app.addHook('onError', async (request, _reply, error) => {
    if (request.routeOptions.url !== LOGIN_ROUTE || !(error instanceof HttpError)) return;
    const flags = error.options.extra ?? {};
    if (flags.accountLocked === true) {
      failures.inc({ reason: 'locked' });
    } else if (flags.passwordReset === true) {
      failures.inc({ reason: 'password_reset' });
    } else if (typeof flags.remainingAttempts === 'number') {
      failures.inc({ reason: 'invalid' });
    }
  });
}
