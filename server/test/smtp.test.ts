import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createSmtpSender } from '../src/plugins/delivery.ts';

/** A minimal SMTP listener on loopback: enough of RFC 5321 for nodemailer to deliver one message. */
function fakeSmtp(): Promise<{ server: Server; port: number; messages: string[] }> {
  const messages: string[] = [];
  const server = createServer((socket) => {
    let data: string | null = null;
    let buffer = '';
    socket.write('220 fake.test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== null) {
          if (line === '.') {
            messages.push(data);
            data = null;
            socket.write('250 OK queued\r\n');
          } else data += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake.test\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0, messages });
    }),
  );
}

let smtp: Awaited<ReturnType<typeof fakeSmtp>>;
afterAll(() => smtp?.server.close());

describe('SMTP delivery', () => {
  it('sends a code email through the configured SMTP server', async () => {
    smtp = await fakeSmtp();
    const sender = await createSmtpSender(`smtp://127.0.0.1:${smtp.port}?ignoreTLS=true`, 'race@example.com');
    await sender.send('runner@example.com', 'Your registration verification code', 'Your code is 123456.');
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toContain('Subject: Your registration verification code');
    expect(smtp.messages[0]).toContain('To: runner@example.com');
    expect(smtp.messages[0]).toContain('Your code is 123456.');
  });
});
