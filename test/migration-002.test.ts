/**
 * Migration 002 on a database made before it: lead activities get their `lead_body`, people
 * and organization activities a body in their own shape, deal activities stay as they were.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { openStore } from '../src/store/database.ts';
import { initialSchema } from '../src/store/migrations/001-initial.ts';

it('re-renders the activities written before it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-migration-'));
  const store = openStore(`sqlite:${join(dir, 'old.db')}`);
  try {
    const migrator = new Migrator({
      db: store.db,
      provider: {
        getMigrations: async () => ({ '001-initial': initialSchema({ dialect: 'sqlite' }) }),
      },
    });
    const { error } = await migrator.migrateToLatest();
    expect(error).toBeUndefined();
    // Rows as the code before 002 wrote them: every body in the deal-activity shape.
    const row = (id: string, subjectType: string, dealStatus: string | null) => {
      const record = {
        id,
        type: 'email',
        date: '2024-04-08T05:25:26.020Z',
        dealStatus,
        dealId: `${subjectType}-1`,
        webFormId: null,
        smsId: null,
        todoId: null,
        memoId: null,
        emailMessageId: 'mail-1',
      };
      return {
        workspace_id: 'ws',
        id,
        subject_type: subjectType,
        subject_id: `${subjectType}-1`,
        type: 'email',
        date: record.date,
        deal_status: dealStatus,
        web_form_id: null,
        sms_id: null,
        todo_id: null,
        memo_id: null,
        email_message_id: 'mail-1',
        body: Buffer.from(JSON.stringify(record)),
      };
    };
    const old = [
      row('a-deal', 'deal', 'Won'),
      row('a-lead', 'lead', null),
      row('a-people', 'people', null),
      row('a-org', 'organization', null),
    ];
    // biome-ignore lint/suspicious/noExplicitAny: the table as 001 made it, before lead_body
    await (store.db as any).insertInto('activities').values(old).execute();

    await store.migrate();

    const rows = await store.db
      .selectFrom('activities')
      .select(['id', 'body', 'lead_body'])
      .orderBy('id')
      .execute();
    const text = (b: unknown) => (b === null ? null : Buffer.from(b as Buffer).toString());
    const byId = new Map(rows.map((r) => [r.id, { body: text(r.body), lead: text(r.lead_body) }]));
    const related =
      '"webFormId":null,"smsId":null,"todoId":null,"memoId":null,"emailMessageId":"mail-1"';
    const head = (id: string) => `{"id":"${id}","type":"email","date":"2024-04-08T05:25:26.020Z"`;
    // The subject lists' records end with `emailId` (given by 002's rendering, or by 020).
    const own = `${related},"emailId":"mail-1"`;
    expect(byId.get('a-deal')).toEqual({ body: old[0]!.body.toString(), lead: null });
    expect(byId.get('a-lead')).toEqual({
      body: old[1]!.body.toString(),
      lead: `${head('a-lead')},"leadId":"lead-1",${own}}`,
    });
    expect(byId.get('a-people')).toEqual({
      body: `${head('a-people')},"peopleId":"people-1",${own}}`,
      lead: null,
    });
    expect(byId.get('a-org')).toEqual({
      body: `${head('a-org')},"organizationId":"organization-1",${own}}`,
      lead: null,
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
