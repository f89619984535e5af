import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { MAX_RECIPIENTS, SendEmailBody } from '../../api-schema/bodies/emails.ts';
import { htmlToText } from '../../domain/email-text.ts';
import { DomainError } from '../../domain/errors.ts';
import { MAX_FILE_BYTES } from '../../domain/file-types.ts';
import { newId } from '../../domain/ids.ts';
import { now } from '../../domain/time.ts';
import { bodyReader } from '../../http/body.ts';
import { HttpError } from '../../http/errors.ts';
import { readQuery } from '../../http/query.ts';
import { checkedId } from '../../http/record-route.ts';
import type { RouteDeps } from '../../http/route-deps.ts';
import { JSON_TYPE, nameIgnored, sendJson } from '../../http/send.ts';
import { type EmailAddress, renderEmail } from '../../render/emails.ts';
import type { Store } from '../../store/database.ts';
import { writeWorkspace } from '../../store/write.ts';
import { fileBytes, readyFile, type StoredFile } from '../files/queries.ts';
import {
  claimEmail,
  type NewEmail,
  reclaimStaleEmail,
  recordSent,
  releaseEmail,
} from './commands.ts';
import type { Mailer } from './mailer.ts';
import { emailByKey, senderOf, sentEmail } from './queries.ts';

/** How e-mails go out: a mailer (from `SMTP_URL`), and the From of every message if set. */
export interface EmailSending {
  mailer: Mailer | undefined;
  /** `SMTP_FROM`: the From of every message; unset, the token's user's name and address. */
  from?: { email: string; name: string | null } | undefined;
}

/** The longest `Idempotency-Key` taken. */
const MAX_KEY_LENGTH = 255;

/**
 * E-mail (docs/decisions.md, Other resources): `POST /v2/email` sends through the SMTP server of
 * `SMTP_URL`, with files as attachments, and records the e-mail as an activity of the people it
 * went to; `GET /v2/email/{emailId}` reads a sent one.
 */
export function registerEmailRoutes(
  app: FastifyInstance,
  { store, base }: RouteDeps,
  sending: EmailSending,
): void {
  const read = bodyReader(SendEmailBody);

  app.post(`${base}/v2/email`, { config: { errorShape: 'A' } }, async (request, reply) => {
    const query = readQuery(request.query, []);
    const key = idempotencyKey(request.headers['idempotency-key']);
    const body = read(request.body);
    const { workspaceId, userId } = request.auth;
    const requestHash = createHash('sha256').update(JSON.stringify(body.value)).digest('hex');
    const ignored = [...query.ignored, ...body.ignored];
    if (key !== undefined) {
      const prior = await emailByKey(store.db, workspaceId, key);
      // A send of this body left `sending` by a process that stopped is sent again.
      const abandoned =
        prior?.status === 'sending' &&
        prior.request_hash === requestHash &&
        (await reclaimStaleEmail(store, workspaceId, prior.id));
      if (prior && !abandoned) return answerPrior(reply, prior, requestHash, ignored);
    }
    const { mailer } = sending;
    if (!mailer) {
      throw new HttpError(
        'unavailable',
        '이메일을 보낼 수 없습니다: 서버에 SMTP_URL이 설정되지 않았습니다.',
      );
    }
    const mail = body.value;
    const cc = mail.ccAddressList ?? [];
    const bcc = mail.bccAddressList ?? [];
    if (mail.toAddressList.length + cc.length + bcc.length > MAX_RECIPIENTS) {
      throw new DomainError(
        'invalid_body',
        `받는 사람은 toAddressList, ccAddressList, bccAddressList를 합해 ${MAX_RECIPIENTS}명까지입니다.`,
      );
    }
    const attachments = await attachmentFiles(store, workspaceId, mail.attachmentIdList ?? []);
    const sender = await senderOf(store.db, workspaceId, userId);
    const from = sending.from ?? { email: sender!.email, name: sender!.name };
    const text = htmlToText(mail.htmlBody);
    const email: NewEmail = {
      id: newId(),
      subject: mail.subject,
      from,
      to: mail.toAddressList.map(address),
      cc: cc.map(address),
      bcc: bcc.map(address),
      html: mail.htmlBody,
      text,
      attachmentIds: attachments.map((f) => f.id),
      senderId: userId,
      idempotencyKey: key,
      requestHash,
      createdAt: now(),
    };
    if (!(await claimEmail(store, workspaceId, email))) {
      // Another request with the key got there first (at the same moment).
      const prior = await emailByKey(store.db, workspaceId, key!);
      return answerPrior(reply, prior!, requestHash, ignored);
    }
    let messageId: string;
    try {
      messageId = await mailer.send({
        from,
        to: email.to,
        cc: email.cc,
        bcc: email.bcc,
        subject: email.subject,
        html: email.html,
        text,
        attachments: attachments.map((f) => ({
          filename: f.name,
          contentType: f.content_type,
          content: Readable.from(fileBytes(store.reader, workspaceId, f), { objectMode: false }),
        })),
      });
    } catch (error) {
      await releaseEmail(store, workspaceId, email.id);
      request.log.warn({ err: error }, 'SMTP send failed');
      throw new HttpError(
        'bad_gateway',
        `SMTP 서버가 이메일을 받지 않았습니다: ${smtpReason(error)}`,
      );
    }
    await writeWorkspace(store, workspaceId, (w) => recordSent(w, email, messageId), {
      actor: { source: 'API', sourceId: userId },
    });
    nameIgnored(reply, { values: {}, ignored });
    return reply
      .code(201)
      .header('Content-Type', JSON_TYPE)
      .send(JSON.stringify({ success: true, data: { id: email.id, messageId } }));
  });

  app.get<{ Params: { emailId: string } }>(
    `${base}/v2/email/:emailId`,
    { config: { errorShape: 'A' } },
    async (request, reply) => {
      const id = checkedId('emailId', request.params.emailId);
      nameIgnored(reply, readQuery(request.query, []));
      const row = await sentEmail(store.reader, request.auth.workspaceId, id);
      // As the live API: an unknown e-mail is a 400 with this text.
      if (!row) throw new DomainError('invalid_parameter', '이메일을 찾을 수 없습니다.');
      return sendJson(reply, JSON.stringify({ success: true, data: { email: renderEmail(row) } }));
    },
  );
}

/** The `Idempotency-Key` header, checked: printable ASCII, up to 255 characters. */
function idempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (
    Array.isArray(raw) ||
    raw.length === 0 ||
    raw.length > MAX_KEY_LENGTH ||
    !/^[\x21-\x7e]+$/.test(raw)
  ) {
    throw new DomainError(
      'invalid_parameter',
      `'Idempotency-Key' 헤더는 한 번, 공백 없는 ASCII ${MAX_KEY_LENGTH}자까지로 보내 주세요.`,
    );
  }
  return raw;
}

/**
 * The answer to a send whose key was used before: the first send's result (201, nothing sent
 * again); 409 while it is still being sent, or when the key came with another body.
 */
function answerPrior(
  reply: FastifyReply,
  prior: { id: string; status: string; message_id: string | null; request_hash: string },
  requestHash: string,
  ignored: string[],
): FastifyReply {
  if (prior.request_hash !== requestHash) {
    throw new DomainError(
      'conflict',
      'Idempotency-Key가 다른 내용의 요청에 이미 쓰였습니다. 새 요청에는 새 키를 보내 주세요.',
    );
  }
  if (prior.status === 'sending') {
    throw new DomainError(
      'conflict',
      '같은 Idempotency-Key의 이메일이 아직 보내지는 중입니다. 잠시 후 다시 보내 주세요.',
    );
  }
  nameIgnored(reply, { values: {}, ignored });
  return reply
    .code(201)
    .header('Content-Type', JSON_TYPE)
    .header('Idempotent-Replayed', 'true')
    .send(
      JSON.stringify({ success: true, data: { id: prior.id, messageId: prior.message_id ?? '' } }),
    );
}

/** The files to attach, each ready in the workspace (404 otherwise), 25 MB at most together. */
async function attachmentFiles(
  store: Store,
  workspaceId: string,
  ids: readonly string[],
): Promise<StoredFile[]> {
  const files: StoredFile[] = [];
  let total = 0;
  for (const id of ids) {
    const file = await readyFile(store.reader, workspaceId, id);
    if (!file) throw new DomainError('not_found', `첨부할 파일을 찾을 수 없습니다: '${id}'`);
    total += file.size;
    files.push(file);
  }
  if (total > MAX_FILE_BYTES) {
    throw new DomainError(
      'invalid_body',
      `첨부 파일은 모두 합해 ${MAX_FILE_BYTES / 1024 / 1024} MB를 넘을 수 없습니다.`,
    );
  }
  return files;
}

function address(a: { email: string; name?: string | undefined }): EmailAddress {
  return { email: a.email, name: a.name ?? null };
}

/** What the SMTP server said, without the server's address or credentials. */
function smtpReason(error: unknown): string {
  const e = error as { responseCode?: unknown; response?: unknown; code?: unknown };
  if (typeof e.response === 'string') return e.response.slice(0, 200);
  if (typeof e.code === 'string') return e.code;
  return 'unknown error';
}
