import type { Readable } from 'node:stream';
import nodemailer from 'nodemailer';

/** An address as a message names it. */
export interface MailAddress {
  email: string;
  name: string | null;
}

/** One attachment: its name, type, and its bytes as a stream. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Readable;
}

/** A message to send. */
export interface OutgoingMail {
  from: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
  subject: string;
  html: string;
  text: string;
  attachments: MailAttachment[];
}

/** Sends messages; answers the Message-ID each went out with. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<string>;
  close(): void;
}

const asNodemailer = (a: MailAddress) => (a.name ? { name: a.name, address: a.email } : a.email);

/**
 * A mailer over the SMTP server of `url` (`smtp://user:pass@host:587`, `smtps://…:465`),
 * through nodemailer: attachments are streamed into the message, never read whole first.
 */
export function smtpMailer(url: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: asNodemailer(mail.from),
        to: mail.to.map(asNodemailer),
        cc: mail.cc.map(asNodemailer),
        bcc: mail.bcc.map(asNodemailer),
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        attachments: mail.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
        })),
      });
      return info.messageId;
    },
    close() {
      transport.close();
    },
  };
}
