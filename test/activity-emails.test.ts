/**
 * E-mails behind activities: every e-mail an activity of the demo names reads through
 * `GET /v2/email/{id}` (subject, from, to, date, text, HTML), and the people, organization
 * and lead activity lists name it also under `emailId` (the live API's key there), while the
 * deal activity keeps its own keys (docs/decisions.md, Record keys). Migration 020 gives stored
 * activities the key.
 */
import type { FastifyInstance } from 'fastify';
import { type Insertable, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import type { ActivityTable } from '../src/model/tables.ts';
import { type TestStore, testApp, testStore, walk } from './helpers.ts';

let store: TestStore;
let app: FastifyInstance;
let token: string;

beforeAll(async () => {
  store = await testStore();
  app = await testApp(store);
  ({ token } = await createDemoWorkspace(store, { seed: 7, people: 80 }));
});
afterAll(async () => {
  await app?.close();
  await store?.dispose();
});

const LISTS = [
  ['/v2/deal/activity', 'dealActivityList'],
  ['/v2/lead/activity', 'leadActivityList'],
  ['/v2/people/activity', 'peopleActivityList'],
  ['/v2/organization/activity', 'organizationActivityList'],
] as const;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('the demo', () => {
  it('has an e-mail behind every e-mail an activity names, readable through the API', async () => {
    const named = new Map<string, string>();
    for (const [path, key] of LISTS) {
      const { records } = await walk(app, token, `${path}?limit=100`, key);
      for (const a of records) {
        if (a.emailMessageId !== null) named.set(a.emailMessageId as string, a.type as string);
        if (a.type === 'email') expect(a.emailMessageId, path).toBeTruthy();
      }
    }
    expect(named.size).toBeGreaterThan(10);
    for (const id of named.keys()) {
      const res = await app.inject({
        method: 'GET',
        url: `/v2/email/${id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, `${id}: ${res.body}`).toBe(200);
      const email = res.json().data.email;
      expect(email.id).toBe(id);
      expect(email.subject).toMatch(/[가-힣]/);
      expect(email.from.email).toMatch(/@/);
      expect(email.from.name).toMatch(/[가-힣]/);
      expect(Array.isArray(email.to)).toBe(true);
      expect(email.status).toBe('delivery');
      expect(email.date).toMatch(TIMESTAMP);
      expect(email.text).toMatch(/[가-힣]/);
      expect(email.htmlBody).toMatch(/^<p>/);
    }
  });

  it('sends each e-mail when its `email` activity happened, to the record’s person', async () => {
    const { records } = await walk(
      app,
      token,
      '/v2/people/activity?types=email&limit=100',
      'peopleActivityList',
    );
    expect(records.length).toBeGreaterThan(0);
    for (const a of records) {
      const res = await app.inject({
        method: 'GET',
        url: `/v2/email/${a.emailId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const email = res.json().data.email;
      expect(email.date).toBe(a.date);
      const person = await app.inject({
        method: 'GET',
        url: `/v2/people/${a.peopleId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      const address = person.json().data.people[0]['이메일'];
      expect(email.to).toEqual(
        address === null ? [] : [expect.objectContaining({ email: address })],
      );
    }
  });
});

describe('activity lists', () => {
  it('name the e-mail under emailId on people, organizations and leads; deals keep their keys', async () => {
    for (const [path, key] of LISTS) {
      const { records } = await walk(app, token, `${path}?limit=100`, key);
      expect(records.length, path).toBeGreaterThan(0);
      for (const a of records) {
        if (key === 'dealActivityList') {
          expect(Object.keys(a).at(-1)).toBe('emailMessageId');
          expect(a).not.toHaveProperty('emailId');
        } else {
          expect(Object.keys(a).slice(-2)).toEqual(['emailMessageId', 'emailId']);
          expect(a.emailId).toBe(a.emailMessageId);
        }
      }
    }
  });
});

describe('migration 020', () => {
  it('gives activities stored before it the emailId key, once', async () => {
    const workspace = await store.db
      .selectFrom('workspaces')
      .select('id')
      .executeTakeFirstOrThrow();
    const encode = (json: string) => (store.dialect === 'sqlite' ? Buffer.from(json) : json);
    const head = (id: string) => ({
      id,
      type: 'email',
      date: '2024-04-08T05:25:26.020Z',
    });
    const related = { webFormId: null, smsId: null, todoId: null, memoId: null };
    const row = (id: string, subjectType: string, mail: string | null) => ({
      workspace_id: workspace.id,
      id,
      subject_type: subjectType,
      subject_id: `${subjectType}-1`,
      type: 'email',
      date: '2024-04-08T05:25:26.020Z',
      deal_status: null,
      web_form_id: null,
      sms_id: null,
      todo_id: null,
      memo_id: null,
      email_message_id: mail,
      // As written before 020: no emailId in any form.
      body: encode(
        JSON.stringify(
          subjectType === 'people' || subjectType === 'organization'
            ? {
                ...head(id),
                [`${subjectType}Id`]: `${subjectType}-1`,
                ...related,
                emailMessageId: mail,
              }
            : {
                ...head(id),
                dealStatus: null,
                dealId: `${subjectType}-1`,
                ...related,
                emailMessageId: mail,
              },
        ),
      ),
      lead_body:
        subjectType === 'lead'
          ? encode(
              JSON.stringify({ ...head(id), leadId: 'lead-1', ...related, emailMessageId: mail }),
            )
          : null,
    });
    const rows = [
      row('m020-deal', 'deal', 'mail-1'),
      row('m020-lead', 'lead', 'mail-2'),
      row('m020-people', 'people', 'mail-"3"'),
      row('m020-org', 'organization', null),
    ];
    // Bodies in the store's own column type (a blob on SQLite, text on PostgreSQL).
    await store.db
      .insertInto('activities')
      .values(rows as unknown as Insertable<ActivityTable>[])
      .execute();
    await sql`delete from kysely_migration where name = '020-activity-email-ids'`.execute(store.db);
    await store.migrate();
    await sql`delete from kysely_migration where name = '020-activity-email-ids'`.execute(store.db);
    await store.migrate();

    const stored = await store.db
      .selectFrom('activities')
      .select(['id', 'body', 'lead_body'])
      .where('id', 'like', 'm020-%')
      .execute();
    const text = (b: unknown) =>
      b === null ? null : JSON.parse(Buffer.from(b as string).toString());
    const byId = new Map(
      stored.map((r) => [r.id, { body: text(r.body), lead: text(r.lead_body) }]),
    );
    expect(byId.get('m020-deal')!.body).not.toHaveProperty('emailId');
    expect(byId.get('m020-lead')!.body).not.toHaveProperty('emailId');
    expect(byId.get('m020-lead')!.lead).toEqual({
      ...head('m020-lead'),
      leadId: 'lead-1',
      ...related,
      emailMessageId: 'mail-2',
      emailId: 'mail-2',
    });
    expect(Object.keys(byId.get('m020-people')!.body).at(-1)).toBe('emailId');
    expect(byId.get('m020-people')!.body.emailId).toBe('mail-"3"');
    expect(byId.get('m020-org')!.body).toMatchObject({ emailMessageId: null, emailId: null });
    // Once: a second run adds no second key.
    for (const r of stored) {
      const raw = Buffer.from((r.lead_body ?? r.body) as string).toString();
      expect(raw.split('"emailId"').length, r.id).toBeLessThanOrEqual(2);
    }
  });
});
