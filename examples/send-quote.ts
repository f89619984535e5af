/**
 * Attaches a file to a deal and e-mails it to the deal's person.
 *
 *   SALESCRM_URL=http://127.0.0.1:3000 SALESCRM_TOKEN=... npm run -s example:send-quote -- DEAL_ID FILE
 *
 * The file (a PDF quote, say) is uploaded on the deal (`POST /v2/file`) unless the deal has a
 * file of that name already, so it shows in the deal's files, then sent as an attachment (`POST /v2/email`, which needs the server's
 * SMTP_URL). The send carries an idempotency key made from the deal and the file, so running
 * the example again (after a timeout, say) answers the first send and mails nothing twice.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CrmApiError, CrmClient } from 'salescrm/client';

async function main(): Promise<number> {
  const baseUrl = process.env.SALESCRM_URL ?? 'http://127.0.0.1:3000';
  const token = process.env.SALESCRM_TOKEN;
  const [dealId, path] = process.argv.slice(2);
  if (!token || !dealId || !path) {
    console.error('send-quote: set SALESCRM_TOKEN and give DEAL_ID FILE');
    return 2;
  }
  const crm = new CrmClient({ baseUrl, token });

  const deal = await crm.deals.get(dealId);
  if (deal.peopleId === null) {
    console.error(`send-quote: deal ${dealId} has no person to send to`);
    return 1;
  }
  const person = (await crm.people.get(deal.peopleId)) as { 이름: string; 이메일: string | null };
  if (!person['이메일']) {
    console.error(`send-quote: ${person['이름']} has no e-mail address`);
    return 1;
  }

  const data = await readFile(path);
  const name = basename(path);
  // Once on the deal: a file of that name already attached is sent as it is.
  const attached = await crm.files
    .list({ objectType: 'deal', objectId: dealId })
    .toArray({ max: 1000 });
  const file =
    attached.find((f) => f.name === name) ??
    (await crm.files.upload(
      { name, data },
      { objectType: 'deal', objectId: dealId, memo: '견적서 발송' },
    ));
  const key = createHash('sha256').update(`${dealId}\n`).update(data).digest('hex').slice(0, 32);
  const sent = await crm.email.send(
    {
      emailProvider: 'gmail',
      toAddressList: [{ email: person['이메일'], name: person['이름'] }],
      subject: `${deal['이름']} 견적서`,
      htmlBody: `<p>${person['이름']}님, 안녕하세요.</p><p>요청하신 견적서를 첨부합니다.</p>`,
      attachmentIdList: [file.id],
    },
    { idempotencyKey: `send-quote-${key}` },
  );
  console.log(`sent ${file.name} to ${person['이메일']}: e-mail ${sent.id} ${sent.messageId}`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CrmApiError)
      console.error(
        `send-quote: ${error.name} ${error.status}: ${error.message}` +
          (error.requestId ? ` (request ${error.requestId})` : ''),
      );
    else console.error('send-quote:', error);
    process.exitCode = 1;
  },
);
