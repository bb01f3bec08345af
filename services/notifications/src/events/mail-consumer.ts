import { startDurableConsumer, type Bus, type Db, type Logger, type RunningConsumer } from '@crewswap/kit';
import { SUBJECTS, type EventDataMap } from '@crewswap/proto';
import type { DigestLinks } from '../domain/digest-links';
import type { OutgoingMail } from '../domain/mailer';
import type { SendMail } from '../domain/send-mail';

/**
 * Every service asks for mail with `outbox.write(trx, SUBJECTS.sendMail, ...)`; this sends it
 * before the transaction that logs it opens. A crash between the two sends the mail again.
 */
export function startMailConsumer(deps: { db: Db; bus: Bus; log: Logger; sendMail: SendMail; digestLinks: DigestLinks }): Promise<RunningConsumer> {
  const outgoing = (event: { id: string; data: EventDataMap['notifications.cmd.mail'] }): OutgoingMail => {
    const { digestFor, ...mail } = event.data;
    if (!digestFor) return { id: event.id, ...mail };
    const link = deps.digestLinks.url(digestFor);
    const line = `Unsubscribe from the daily digest: ${link}`;
    const html = mail.html?.replace('</body>', `<p style="color: #666; font-size: 13px;"><a href="${link}">Unsubscribe from the daily digest</a></p>\n</body>`);
    return { id: event.id, ...mail, text: `${mail.text}\n\n${line}`, ...(html ? { html } : {}), listUnsubscribe: link };
  };
  return startDurableConsumer({
    db: deps.db,
    bus: deps.bus,
    log: deps.log,
    stream: 'NOTIFICATIONS',
    durable: 'notifications_mail',
    filter: SUBJECTS.sendMail,
    subjects: [SUBJECTS.sendMail],
    handler: {
      prepare: (event) => deps.sendMail.send(outgoing(event)),
      apply: (event, sent, trx) => deps.sendMail.record(outgoing(event), sent, trx),
    },
  });
}
