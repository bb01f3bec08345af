import { badRequest, routes } from '@crewswap/kit';
import { API, DIGEST_MESSAGES } from '@crewswap/proto';
import type { FastifyInstance } from 'fastify';
import type { DigestLinks } from '../domain/digest-links';
import type { createUpdatePreferences } from '../domain/preferences';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The digest's one-click unsubscribe, by its signed link and no login. GET (the link clicked in
 * the mail) shows a page with one button, so a mail scanner following links unsubscribes nobody;
 * POST (the button, or a mail client's List-Unsubscribe-Post) turns the digest off.
 */
export function digestRoutes(app: FastifyInstance, deps: { links: DigestLinks; updatePreferences: ReturnType<typeof createUpdatePreferences>; product: string }): void {
  const route = routes(app);
  const pilotOf = (token: string) => {
    const pilotId = deps.links.verify(token);
    if (!pilotId) throw badRequest(DIGEST_MESSAGES.badLink);
    return pilotId;
  };
  // RFC 8058's body is a form ('List-Unsubscribe=One-Click'); the signed token says everything.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));

  route(API.digestUnsubscribePage, { auth: 'none' }, async ({ query, reply }) => {
    pilotOf(query.token);
    const product = escapeHtml(deps.product);
    return reply.type('text/html; charset=utf-8').send(
      `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${product}</title></head>` +
        `<body style="font-family: Arial, Helvetica, sans-serif; margin: 32px;"><h1 style="font-size: 20px;">${product} daily digest</h1>` +
        `<form method="post"><button type="submit" style="font-size: 16px; padding: 8px 16px;">Unsubscribe from the daily digest</button></form></body></html>`,
    );
  });

  route(API.digestUnsubscribe, { auth: 'none' }, async ({ query }) => {
    await deps.updatePreferences.execute(pilotOf(query.token), { digest: null });
    return { message: DIGEST_MESSAGES.unsubscribed };
  });
}
