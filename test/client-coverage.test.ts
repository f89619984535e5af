import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import type { Operation } from '../src/api-schema/operations/operation.ts';
import { CrmClient } from '../src/client/index.ts';
import type { FetchLike } from '../src/client/transport.ts';

// The client against the route table (src/api-schema/operations/, which test/openapi.test.ts
// checks against the app's real routes): every operation under /v2 has a client method, and
// the client sends no query parameter the operation does not declare (the server would
// ignore it silently). The answers here are canned: what is checked is what is sent.

const sent: { method: string; path: string; params: string[] }[] = [];

/** Records the call and answers an envelope with every key the client may read. */
const recordingFetch: FetchLike = async (url, init) => {
  const u = new URL(url);
  sent.push({ method: init.method, path: u.pathname, params: [...u.searchParams.keys()] });
  const body = JSON.stringify({ success: true, data: cannedData() });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
};

/** `data` shaped as the client reads it: every key it may look for. */
function cannedData(): Record<string, unknown> {
  const keys = [
    'people',
    'organization',
    'deal',
    'lead',
    'product',
    'quote',
    'memo',
    'user',
    'quoteList',
    'pipelineList',
    'fieldList',
    'webhook',
    'field',
    'customObject',
    'customObjectDefinitionList',
    'objectList',
    'associationList',
    'email',
    'recording',
    'recordingTranscript',
  ];
  const data: Record<string, unknown> = { nextCursor: null };
  for (const key of keys) data[key] = [{ id: 'x' }];
  for (const k of LIST_KEYS) data[k] = [];
  return data;
}

const LIST_KEYS = [
  'peopleList',
  'organizationList',
  'dealList',
  'leadList',
  'productList',
  'dealActivityList',
  'peopleActivityList',
  'organizationActivityList',
  'leadActivityList',
  'peopleHistoryList',
  'dealHistoryList',
  'leadHistoryList',
  'organizationHistoryList',
  'customObjectList',
  'customObjectActivityList',
  'customObjectHistoryList',
  'userList',
  'teamList',
  'todoList',
  'memoList',
  'webFormList',
  'webFormSubmitList',
  'eventList',
  'webhookList',
  'deliveryList',
  'typeList',
  'objectList',
  'fileList',
  'sequenceList',
  'stepList',
  'sequenceEnrollmentList',
  'timelineList',
  'associationIdList',
  'associationItemList',
];

const crm = new CrmClient({ baseUrl: 'http://crm.test', token: 't', fetch: recordingFetch });
const day = { startDate: '2024-01-01', endDate: new Date('2024-02-01T00:00:00Z') };

/** A search filter group: records that have a name. */
const named = { filters: [{ fieldName: '이름', operator: 'EXISTS' as const }] };

/** One call of every client method, with every filter it takes. */
const CALLS: Record<string, () => Promise<unknown>> = {
  'people.search': () =>
    crm.people
      .search(
        { filterGroupList: [{ filters: [{ fieldName: '이름', operator: 'EQ', value: 'x' }] }] },
        { limit: 5 },
      )
      .page({ cursor: 'c' }),
  'organizations.search': () => crm.organizations.search({ filterGroupList: [named] }).page(),
  'deals.search': () =>
    crm.deals
      .search({ filterGroupList: [named], sortList: [{ fieldName: '금액', direction: 'desc' }] })
      .page(),
  'leads.search': () => crm.leads.search({ filterGroupList: [named], fieldList: ['이름'] }).page(),
  'people.list': () => crm.people.list({ limit: 10 }).page({ cursor: 'c' }),
  'people.get': () => crm.people.get('p1'),
  'people.create': () => crm.people.create({ name: 'n' }),
  'people.update': () => crm.people.update('p1', { name: 'n' }),
  'people.addMemo': () => crm.people.addMemo('p1', { text: 't', typeId: 'memo-type-call' }),
  'people.merge': () => crm.people.merge('p1', 'p2'),
  'people.activities.list': () =>
    crm.people.activities.list({ peopleId: 'p1', types: ['email'], ...day }).page(),
  'people.history.list': () => crm.people.history.list({ peopleId: 'p1' }).page(),
  'organizations.list': () => crm.organizations.list().page(),
  'organizations.get': () => crm.organizations.get('o1'),
  'organizations.create': () => crm.organizations.create({ name: 'n' }),
  'organizations.update': () => crm.organizations.update('o1', { name: 'n' }),
  'organizations.addMemo': () => crm.organizations.addMemo('o1', { text: 't' }),
  'organizations.merge': () => crm.organizations.merge('o1', 'o2'),
  'organizations.activities.list': () =>
    crm.organizations.activities.list({ organizationId: 'o1', types: ['meeting'], ...day }).page(),
  'organizations.history.list': () =>
    crm.organizations.history.list({ organizationId: 'o1' }).page(),
  'deals.list': () => crm.deals.list({ pipelineName: 'p', pipelineStageName: 's' }).page(),
  'deals.get': () => crm.deals.get('d1'),
  'deals.create': () =>
    crm.deals.create({ name: 'n', pipelineId: 'p', pipelineStageId: 's', status: 'Won' }),
  'deals.update': () => crm.deals.update('d1', { status: 'Lost' }),
  'deals.addMemo': () => crm.deals.addMemo('d1', { text: 't' }),
  'deals.delete': () => crm.deals.delete('d1'),
  'deals.merge': () => crm.deals.merge('d1', 'd2'),
  'deals.quotes': () => crm.deals.quotes('d1'),
  'deals.pipelines': () => crm.deals.pipelines(),
  'deals.activities.list': () =>
    crm.deals.activities.list({ dealId: 'd1', types: ['create'], ...day }).page(),
  'deals.history.list': () => crm.deals.history.list({ dealId: 'd1' }).page(),
  'leads.list': () => crm.leads.list().page(),
  'leads.get': () => crm.leads.get('l1'),
  'leads.create': () => crm.leads.create({ name: 'n' }),
  'leads.update': () => crm.leads.update('l1', { name: 'n' }),
  'leads.addMemo': () => crm.leads.addMemo('l1', { text: 't' }),
  'leads.delete': () => crm.leads.delete('l1'),
  'leads.merge': () => crm.leads.merge('l1', 'l2'),
  'leads.quotes': () => crm.leads.quotes('l1'),
  'leads.pipelines': () => crm.leads.pipelines(),
  'leads.activities.list': () =>
    crm.leads.activities.list({ leadId: 'l1', types: ['email'], ...day }).page(),
  'leads.history.list': () => crm.leads.history.list({ leadId: 'l1' }).page(),
  'products.list': () => crm.products.list().page(),
  'products.create': () => crm.products.create({ name: 'n', price: 1 }),
  'products.update': () => crm.products.update('p1', { price: 2 }),
  'products.delete': () => crm.products.delete('p1'),
  'products.addMemo': () => crm.products.addMemo('p1', { memo: 't' }),
  'quotes.create': () => crm.quotes.create({ name: 'n', dealId: 'd1' }),
  'quotes.addMemo': () => crm.quotes.addMemo('q1', { htmlBody: '<p>t</p>' }),
  'pipelines.list': () => crm.pipelines.list(),
  'files.upload': () =>
    crm.files.upload(
      { name: 'a.txt', data: new TextEncoder().encode('x') },
      { objectType: 'deal', objectId: 'd1', memo: 'm' },
    ),
  'files.list': () => crm.files.list({ objectType: 'deal', objectId: 'd1' }).page({ cursor: 'c' }),
  'files.download': () => crm.files.download('f1'),
  'files.delete': () => crm.files.delete('f1'),
  'email.send': () =>
    crm.email.send(
      {
        emailProvider: 'gmail',
        toAddressList: [{ email: 'a@example.com' }],
        subject: 's',
        htmlBody: '<p>b</p>',
        attachmentIdList: ['f1'],
      },
      { idempotencyKey: 'k' },
    ),
  'email.get': () => crm.email.get('e1'),
  'recordings.create': () =>
    crm.recordings.create({
      fileId: 'f1',
      objectType: 'deal',
      objectId: 'd1',
      title: '통화',
      duration: 60,
      transcriptSegmentList: [{ startTime: 0, endTime: 1000, text: '안녕하세요', speakerId: 's1' }],
      speakerInfoList: [{ speakerId: 's1', label: '영업' }],
    }),
  'recordings.get': () => crm.recordings.get('r1'),
  'recordings.transcript': () => crm.recordings.transcript('r1'),
  'recordings.delete': () => crm.recordings.delete('r1'),
  'users.list': () => crm.users.list().page(),
  'users.me': () => crm.users.me(),
  'users.meShort': () => crm.users.meShort(),
  'teams.list': () => crm.teams.list().page(),
  'todos.list': () => crm.todos.list({ ownerId: 'u' }).page(),
  'todos.create': () =>
    crm.todos.create({ dealId: 'd1', fieldList: [{ name: '내용', stringValue: '전화' }] }),
  'todos.update': () =>
    crm.todos.update('t1', { fieldList: [{ name: '유형', stringValue: '미팅' }] }),
  'todos.complete': () => crm.todos.complete('t1'),
  'todos.delete': () => crm.todos.delete('t1'),
  'todos.addMemo': () => crm.todos.addMemo('t1', { text: 't', parentId: 'm1' }),
  'memos.list': () =>
    crm.memos
      .list({
        ...day,
        ownerId: 'u',
        dealId: 'd',
        leadId: 'l',
        peopleId: 'p',
        organizationId: 'o',
        typeId: 'memo-type-call',
        customObjectId: 'c',
      })
      .page(),
  'memos.get': () => crm.memos.get('m1'),
  'memos.types': () => crm.memos.types(),
  'webForms.list': () => crm.webForms.list().page(),
  'webForms.submissions': () => crm.webForms.submissions('w1').page(),
  'associations.primary': () => crm.associations.primary('people', 'p1', 'memo').page(),
  'associations.custom': () =>
    crm.associations.custom('custom-object', 'c1', 'custom-object').page(),
  'sequences.list': () => crm.sequences.list().page(),
  'sequences.get': () => crm.sequences.get('s1'),
  'sequences.steps': () => crm.sequences.steps('s1').page(),
  'sequences.enrollments': () => crm.sequences.enrollments('s1').page(),
  'sequences.timeline': () => crm.sequences.timeline('e1').page(),
  'sequences.enroll': () => crm.sequences.enroll('s1', 'p1'),
  'sequences.unenroll': () => crm.sequences.unenroll('e1'),
  'fields.list': () => crm.fields.list('custom-object', { customObjectDefinitionId: 'd1' }),
  'customObjects.definitions': () => crm.customObjects.definitions(),
  'customObjects.list': () =>
    crm.customObjects
      .list({ customObjectDefinitionId: 'd1', customObjectDefinitionName: '계약서' })
      .page(),
  'customObjects.get': () => crm.customObjects.get('c1'),
  'customObjects.create': () =>
    crm.customObjects.create({
      customObjectDefinitionName: '계약서',
      fieldList: [{ name: '이름', stringValue: 'n' }],
    }),
  'customObjects.update': () => crm.customObjects.update('c1', { memo: 'm' }),
  'customObjects.delete': () => crm.customObjects.delete('c1'),
  'customObjects.addMemo': () =>
    crm.customObjects.addMemo('c1', { text: 't', typeId: 'memo-type-call' }),
  'customObjects.activities.list': () =>
    crm.customObjects.activities.list({ customObjectId: 'c1', types: ['create'], ...day }).page(),
  'customObjects.history.list': () =>
    crm.customObjects.history.list({ customObjectId: 'c1' }).page(),
  'fields.create': () => crm.fields.create('people', { name: 'n', type: 'string' }),
  'fields.update': () => crm.fields.update('people', 'f1', { name: 'n' }),
  'events.list': () => crm.events.list({ objectType: 'deal', cursor: 'c', limit: 10 }).page(),
  'webhooks.create': () =>
    crm.webhooks.create({ url: 'https://hooks.example.com', objectTypeList: ['deal'] }),
  'webhooks.list': () => crm.webhooks.list(),
  'webhooks.get': () => crm.webhooks.get('w1'),
  'webhooks.update': () => crm.webhooks.update('w1', { status: 'disabled' }),
  'webhooks.delete': () => crm.webhooks.delete('w1'),
  'webhooks.rotateSecret': () => crm.webhooks.rotateSecret('w1'),
  'webhooks.deliveries': () => crm.webhooks.deliveries('w1', { status: 'failed' }).page(),
  'webhooks.replay': () => crm.webhooks.replay('w1', 'd1'),
  'batch.read': () => crm.batch.read({ objectType: 'deal', idList: ['d1'], fieldList: ['이름'] }),
  'batch.create': () =>
    crm.batch.create({ objectType: 'people', inputList: [{ data: { 이름: 'n' } }] }),
  'batch.update': () =>
    crm.batch.update({ objectType: 'lead', inputList: [{ id: 'l1', data: { 이름: 'n' } }] }),
  'batch.pipelines': () => crm.batch.pipelines('deal'),
  'batch.associations': () => crm.batch.associations('people'),
};

/** Dotted names of every function reachable from the client's resource groups. */
function clientMethods(): string[] {
  const names: string[] = [];
  const visit = (value: unknown, prefix: string) => {
    if (typeof value === 'function') names.push(prefix);
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value))
        visit(inner, prefix ? `${prefix}.${key}` : key);
  };
  visit({ ...crm }, '');
  return names.sort();
}

/** The operation a request went to, by method and path template. */
function operationOf(method: string, path: string): Operation | undefined {
  const matches = OPERATIONS.filter((op) => {
    if (!op.api || op.method !== method) return false;
    const pattern = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    return pattern.test(path);
  });
  // A literal segment wins over a parameter (`/v2/deal/activity` over `/v2/deal/{dealId}`).
  return matches.sort((a, b) => a.path.split('{').length - b.path.split('{').length)[0];
}

describe('the client covers the route table', () => {
  it('the call table names every client method', () => {
    expect(Object.keys(CALLS).sort()).toEqual(clientMethods());
  });

  it('every /v2 operation is reached by a method, with only declared query parameters', async () => {
    for (const [name, call] of Object.entries(CALLS)) {
      const before = sent.length;
      await call();
      expect(sent.length, name).toBe(before + 1);
    }
    const reached = new Set<string>();
    for (const request of sent) {
      const op = operationOf(request.method, request.path);
      expect(op, `${request.method} ${request.path}`).toBeDefined();
      reached.add(op!.operationId);
      const declared = new Set(op!.query.map((q) => q.name));
      for (const param of request.params)
        expect(declared, `${op!.path} ?${param}`).toContain(param);
    }
    const missing = OPERATIONS.filter((op) => op.api && !reached.has(op.operationId)).map(
      (op) => `${op.method} ${op.path}`,
    );
    expect(missing).toEqual([]);
  });
});

describe('cursor spellings', () => {
  /** Three pages of a deal list whose cursor is only under the given key. */
  const pagedFetch =
    (cursorKey: string): FetchLike =>
    async (url) => {
      const cursor = new URL(url).searchParams.get('cursor');
      const n = cursor === null ? 0 : Number(cursor.slice(1));
      const data = {
        dealList: [{ id: `d${n}` }],
        [cursorKey]: n < 2 ? `c${n + 1}` : null,
      };
      return new Response(JSON.stringify({ success: true, data }), { status: 200 });
    };

  for (const key of ['nextCurosr', 'nextCursor']) {
    it(`follows ${key} alone`, async () => {
      const client = new CrmClient({
        baseUrl: 'http://crm.test',
        token: 't',
        fetch: pagedFetch(key),
      });
      const ids: string[] = [];
      for await (const deal of client.deals.list()) ids.push(deal.id);
      expect(ids).toEqual(['d0', 'd1', 'd2']);
    });
  }

  it('a cursor that comes back again stops the walk with an error instead of looping', async () => {
    const client = new CrmClient({
      baseUrl: 'http://crm.test',
      token: 't',
      fetch: async () =>
        new Response(
          JSON.stringify({ success: true, data: { dealList: [], nextCursor: 'same' } }),
          {
            status: 200,
          },
        ),
    });
    await expect(client.deals.list().toArray({ max: 1000 })).rejects.toThrow(/twice/);
  });
});
