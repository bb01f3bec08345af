import { clearSessionCookie, HttpError, PILOT_COOKIE, routes, setSessionCookie } from '@crewswap/kit';
import { API, type AuthPublicConfig } from '@crewswap/proto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';
import type { LoginResult } from '../domain/login';
import type { AuthUseCases } from '../domain/use-cases';
import type { pilotGuards } from './guards';

/** `/api/auth/*`: registration, verification, login and passwords. */
export function authRoutes(
  app: FastifyInstance,
  deps: { config: Pick<Config, 'COMPANY_EMAIL_DOMAIN' | 'PRODUCT_NAME' | 'SECURE_COOKIES'>; guards: ReturnType<typeof pilotGuards>; useCases: AuthUseCases },
): void {
  const { config, guards, useCases } = deps;
  const route = routes(app);
  const signIn = (reply: FastifyReply, result: LoginResult) => {
    setSessionCookie(reply, PILOT_COOKIE, result.token, config.SECURE_COOKIES);
    return result.response;
  };

  route(API.authConfig, { auth: 'none' }, async (): Promise<AuthPublicConfig> => ({
    companyEmailDomain: config.COMPANY_EMAIL_DOMAIN,
    productName: config.PRODUCT_NAME,
  }));

  route(API.register, { auth: 'none', status: 201 }, async ({ body }) => useCases.register.execute(body));

  route(API.verifyEmail, { auth: 'none' }, async ({ body }) => useCases.verifyEmail.execute(body));

  route(API.resendVerification, { auth: 'none' }, async ({ body, reply }) => {
    try {
      return await useCases.resendVerification.execute(body);
    } catch (error) {
      // The body says how long to wait; the standard header says it to any HTTP client.
      const wait = error instanceof HttpError ? error.options.extra?.retryAfterSeconds : undefined;
      if (typeof wait === 'number') reply.header('retry-after', String(wait));
      throw error;
    }
  });

  route(API.login, { auth: 'none' }, async ({ body, reply }) => signIn(reply, await useCases.login.execute(body)));

  route(API.testLogin, { auth: 'none' }, async ({ body, request, reply }) => signIn(reply, await useCases.testLogin.execute(body, request.ip)));

  // Logging out always succeeds for the browser: an already ended session just loses its cookie.
  route(API.logout, { auth: guards.loggingOut }, async ({ session, reply }) => {
    if (session) await useCases.endSession.execute({ sessionId: session.sessionId, reason: 'logout' });
    clearSessionCookie(reply, PILOT_COOKIE);
    return { message: 'Logged out.' };
  });

  route(API.forcePasswordChange, { auth: guards.pilotChangingPassword }, async ({ session, body, reply }) =>
    signIn(reply, await useCases.forcePasswordChange.execute({ session: session.session, pilot: session.pilot, body })),
  );

  route(API.forgotPassword, { auth: 'none' }, async ({ body }) => useCases.forgotPassword.execute(body));
}
