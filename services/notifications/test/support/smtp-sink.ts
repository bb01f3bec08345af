import { createServer, type Socket } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as sent after DATA (headers and body, CRLF lines, dot-stuffing undone). */
  data: string;
}

/**
 * Just enough of an SMTP server (RFC 5321: EHLO, MAIL, RCPT, DATA, RSET, QUIT; no TLS, no auth)
 * for nodemailer to deliver to. `failFirst` answers 451 (try later) to that many MAIL commands;
 * `rejects` answers 550 (no such user) to matching recipients.
 */
export async function startSmtpSink(options: { failFirst?: number; rejects?: (address: string) => boolean } = {}) {
  const received: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  let failuresLeft = options.failFirst ?? 0;
  const address = (line: string) => /<([^>]*)>/.exec(line)?.[1] ?? '';

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const say = (line: string) => socket.write(`${line}\r\n`);
    let pending = '';
    let envelope: { from: string; to: string[] } | undefined;
    let data: string | undefined;
    say('220 sink ESMTP');
    socket.on('data', (chunk) => {
      pending += chunk.toString('utf8');
      for (let end = pending.indexOf('\r\n'); end >= 0; end = pending.indexOf('\r\n')) {
        const line = pending.slice(0, end);
        pending = pending.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
            received.push({ ...envelope!, data });
            data = undefined;
            say('250 2.0.0 queued');
          } else data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') say('250 sink');
        else if (verb === 'MAIL' && failuresLeft > 0) {
          failuresLeft -= 1;
          say('451 4.3.0 try again later');
        } else if (verb === 'MAIL') {
          envelope = { from: address(line), to: [] };
          say('250 2.1.0 ok');
        } else if (verb === 'RCPT' && options.rejects?.(address(line))) say('550 5.1.1 no such user');
        else if (verb === 'RCPT') {
          envelope?.to.push(address(line));
          say('250 2.1.5 ok');
        } else if (verb === 'DATA') {
          data = '';
          say('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'RSET') say('250 2.0.0 ok');
        else if (verb === 'QUIT') socket.end('221 2.0.0 bye\r\n');
        else say('502 5.5.1 not implemented');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
