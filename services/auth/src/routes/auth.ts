import { clearSessionCookie, HttpError, parse, PILOT_COOKIE, setSessionCookie } from '@crewswap/kit';
import { type AuthPublicConfig, EmailBody, ForcePasswordChangeBody, LoginBody, RegisterBody, TestLoginBody, VerifyEmailBody } from '@crewswap/proto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AuthContext } from '../domain/context';
import { forcePasswordChange, forgotPassword, login, testLogin, type LoginResult } from '../domain/login';
import { register, resendVerification, verifyEmail } from '../domain/registration';
import { endSession } from '../domain/sessions';
import { requirePilot } from './guards';

/** `/api/auth/*`: registration, verification, login and passwords. */
export function authRoutes(app: FastifyInstance, ctx: AuthContext): void {
  const signIn = (reply: FastifyReply, result: LoginResult) => {
    setSessionCookie(reply, PILOT_COOKIE, result.token, ctx.config.SECURE_COOKIES);
    return result.response;
  };

  app.get('/api/auth/config', async (): Promise<AuthPublicConfig> => ({
    companyEmailDomain: ctx.config.COMPANY_EMAIL_DOMAIN,
    productName: ctx.config.PRODUCT_NAME,
  }));

  app.post('/api/auth/register', async (request, reply) => {
    const response = await register(ctx, parse(RegisterBody, request.body));
    return reply.status(201).send(response);
  });

  app.post('/api/auth/verify-email', async (request) => {
    const body = parse(VerifyEmailBody, request.body);
    return verifyEmail(ctx, body.email, body.code);
  });

  app.post('/api/auth/resend-verification', async (request, reply) => {
    const { email } = parse(EmailBody, request.body);
    try {
      return await resendVerification(ctx, email);
    } catch (error) {
      // The body says how long to wait; the standard header says it to any HTTP client.
      const wait = error instanceof HttpError ? error.options.extra?.retryAfterSeconds : undefined;
      if (typeof wait === 'number') reply.header('retry-after', String(wait));
      throw error;
    }
  });

  app.post('/api/auth/login', async (request, reply) => signIn(reply, await login(ctx, parse(LoginBody, request.body))));

  app.post('/api/auth/test-login', async (request, reply) => signIn(reply, await testLogin(ctx, parse(TestLoginBody, request.body))));

  app.post('/api/auth/logout', async (request, reply) => {
    // Logging out always succeeds for the browser: an already ended session just loses its cookie.
    const session = (() => {
      try {
        // Auth ends the session in its own store, so logout works while NATS is away too.
        return ctx.guard.pilot(request, { allowForcedChange: true, storeChecked: true });
      } catch {
        return undefined;
      }
    })();
    if (session) await endSession(ctx, session.sessionId, 'logout');
    clearSessionCookie(reply, PILOT_COOKIE);
    return { message: 'Logged out.' };
  });

  app.post('/api/auth/force-password-change', async (request, reply) => {
    const { session, pilot } = await requirePilot(ctx, request, { allowForcedChange: true });
    return signIn(reply, await forcePasswordChange(ctx, session, pilot, parse(ForcePasswordChangeBody, request.body)));
  });

  app.post('/api/auth/forgot-password', async (request) => forgotPassword(ctx, parse(EmailBody, request.body).email));
}
