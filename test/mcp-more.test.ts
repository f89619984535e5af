/**
 * The MCP tools of todos, custom objects, sequences and files, through the SDK's client over
 * Streamable HTTP: each write read back through the API, bad arguments answered as tool
 * errors, a read-only token offered no write tool, another workspace's ids not found, and the
 * size of `tools/list` a model reads.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineCustomObject } from '../src/resources/custom-objects/commands.ts';
import { insertTodos } from '../src/resources/todos/writes.ts';
import { createToken } from '../src/resources/workspaces/writes.ts';
import {
  makeDeal,
  makeFile,
  makeLead,
  makePerson,
  makePipeline,
  makeSequence,
  makeTodo,
} from './factories.ts';
import {
  get,
  type TestStore,
  type TestWorkspace,
  testApp,
  testStore,
  testWorkspace,
  walk,
} from './helpers.ts';
import { callTool, httpClient, type Json, READ_TOOLS, WRITE_TOOLS } from './mcp-client.ts';

/** The most bytes of `tools/list` (names, descriptions, schemas) a model is given: 25 tools took 22,185. */
const TOOLS_LIST_BUDGET = 22_500;

describe('the MCP tools of todos, custom objects, sequences and files', {
  timeout: 120_000,
}, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let url: string;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let readOnlyToken: string;
  let client: Client;
  let personId: string;
  let dealId: string;
  let leadId: string;
  let contract: { id: string; name: string };
  let ticket: { id: string; name: string; pipelineId: string | null };
  let sequenceId: string;
  let fileId: string;

  /** Every todo of the workspace, through the API. */
  async function todos(token = ws.token): Promise<Json[]> {
    return (await walk(app, token, '/v2/todo', 'todoList')).records;
  }

  async function customObject(id: string): Promise<Json> {
    const res = await get(app, ws.token, `/v2/custom-object/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.json.data.customObject;
  }

  beforeAll(async () => {
    store = await testStore();
    ws = await testWorkspace(store);
    other = await testWorkspace(store, '다른 워크스페이스');
    readOnlyToken = (await createToken(store, ws.workspaceId, ws.userId, 'ro', { readOnly: true }))
      .token;
    ({ personId, dealId, leadId, contract, ticket, sequenceId, fileId } = await ws.write(
      async (w) => {
        const contract = await defineCustomObject(w, {
          name: '계약서',
          fields: [{ name: '계약 금액', type: 'number' }],
        });
        const ticket = await defineCustomObject(w, {
          name: '티켓',
          fields: [{ name: '우선순위', type: 'string' }],
          stages: ['접수', '처리중', '완료'],
        });
        const personId = await makePerson(w, { name: '할일 고객' });
        const busy = await makePerson(w, { name: '바쁜 고객' });
        const pipeline = await makePipeline(w);
        const dealId = await makeDeal(w, {
          name: '할일 딜',
          peopleId: personId,
          pipelineId: pipeline.id,
          stageId: pipeline.stageIds[0]!,
        });
        const leadId = await makeLead(w, { name: '할일 리드', peopleId: personId });
        // More todos than one page of the API's list, none of the records above.
        for (let i = 0; i < 120; i++) {
          await makeTodo(w, { subjectType: 'people', subjectId: busy, title: `바쁜 일 ${i}` });
        }
        const sequenceId = await makeSequence(w, '환영 시퀀스');
        const fileId = await makeFile(w, {
          name: '제안서.txt',
          subject: { type: 'deal', id: dealId },
        });
        return { personId, dealId, leadId, contract, ticket, sequenceId, fileId };
      },
    ));
    app = await testApp(store);
    url = await app.listen({ port: 0, host: '127.0.0.1' });
    client = await httpClient(url, ws.token);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await store?.dispose();
  });

  it('lists the tools within the budget of tools/list, and none that write to a read-only token', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
    const ro = await httpClient(url, readOnlyToken);
    try {
      expect((await ro.listTools()).tools.map((t) => t.name).sort()).toEqual(READ_TOOLS);
      const listed = await callTool(ro, 'list_todos', { type: 'deal', id: dealId });
      expect(listed.isError).toBe(false);
      const refused = await callTool(ro, 'create_record', {
        type: 'todo',
        name: 'x',
        dealId,
      });
      expect(refused.isError).toBe(true);
    } finally {
      await ro.close();
    }
  });

  it('creates, lists, completes and deletes a todo (with confirm) through the API', async () => {
    const created = await callTool(client, 'create_record', {
      type: 'todo',
      name: '제안서 보내기',
      dealId,
      fieldList: [{ name: '마지막 날짜', dateValue: '2030-01-02T03:04:05.000Z' }],
    });
    expect(created.isError, JSON.stringify(created.json)).toBe(false);
    const id = created.json.data.todo.id;
    const todo = (await todos()).find((t) => t.id === id);
    expect(todo).toMatchObject({
      내용: '제안서 보내기',
      dealId,
      완료: false,
      '마지막 날짜': '2030-01-02T03:04:05.000Z',
    });

    const ofDeal = await callTool(client, 'list_todos', { type: 'deal', id: dealId });
    expect(ofDeal.json).toEqual({ records: [todo], nextCursor: null, hasMore: false });
    const ofPerson = await callTool(client, 'list_todos', { type: 'people', id: personId });
    expect(ofPerson.json.records).toEqual([]);
    const page = await callTool(client, 'list_todos', { limit: 7 });
    const api = await get(app, ws.token, '/v2/todo?limit=7');
    expect(page.json.records).toEqual(api.json.data.todoList);
    expect(page.json.nextCursor).toBe(api.json.data.nextCursor);

    const done = await callTool(client, 'update_record', {
      type: 'todo',
      id,
      fieldList: [{ name: '완료', booleanValue: true }],
    });
    expect(done.isError, JSON.stringify(done.json)).toBe(false);
    const completed = (await todos()).find((t) => t.id === id);
    expect(completed.완료).toBe(true);
    expect(completed['완료 날짜']).not.toBeNull();
    await callTool(client, 'update_record', { type: 'todo', id, name: '제안서 다시 보내기' });
    expect((await todos()).find((t) => t.id === id).내용).toBe('제안서 다시 보내기');

    const asked = await callTool(client, 'delete_record', { type: 'todo', id });
    expect(asked.json).toMatchObject({ deleted: false, wouldDelete: { type: 'todo', id } });
    expect((await todos()).some((t) => t.id === id)).toBe(true);
    const deleted = await callTool(client, 'delete_record', { type: 'todo', id, confirm: true });
    expect(deleted.json).toEqual({ deleted: true, type: 'todo', id });
    expect((await todos()).some((t) => t.id === id)).toBe(false);
  });

  it("lists a record's todos across the pages of the workspace's list", async () => {
    const made: string[] = [];
    for (const name of ['리드 할 일 1', '리드 할 일 2']) {
      const res = await callTool(client, 'create_record', { type: 'todo', name, leadId });
      made.push(res.json.data.todo.id);
    }
    // A lead has no 전체 TODO: its todos are looked for to the end of the list.
    const ofLead = await callTool(client, 'list_todos', { type: 'lead', id: leadId });
    expect(ofLead.json.records.map((t: Json) => t.id)).toEqual(made);
    expect(ofLead.json.hasMore).toBe(false);
    const ofPerson = await callTool(client, 'list_todos', { type: 'people', id: personId });
    expect(ofPerson.json).toEqual({ records: [], nextCursor: null, hasMore: false });
  });

  it("goes on from a cursor when a record's todos lie past the ten pages one call reads", async () => {
    const many = await testWorkspace(store, '할 일 많은 워크스페이스');
    const { busy, target, lead } = await many.write(async (w) => ({
      busy: await makePerson(w),
      target: await makePerson(w),
      lead: await makeLead(w, { name: '늦은 리드' }),
    }));
    await many.write((w) =>
      insertTodos(
        w,
        Array.from({ length: 1050 }, (_, i) => ({
          subjectType: 'people' as const,
          subjectId: busy,
          title: `일 ${i}`,
          ownerId: many.userId,
        })),
      ),
    );
    const late = await many.write(async (w) => [
      await makeTodo(w, { subjectType: 'people', subjectId: target, title: '늦은 일 1' }),
      await makeTodo(w, { subjectType: 'people', subjectId: target, title: '늦은 일 2' }),
      await makeTodo(w, { subjectType: 'lead', subjectId: lead, title: '리드의 늦은 일' }),
    ]);
    const theirs = await httpClient(url, many.token);
    try {
      for (const [type, id, expected] of [
        ['people', target, late.slice(0, 2)],
        ['lead', lead, late.slice(2)],
      ] as const) {
        const first = await callTool(theirs, 'list_todos', { type, id });
        expect(first.json).toMatchObject({ records: [], hasMore: true });
        const second = await callTool(theirs, 'list_todos', {
          type,
          id,
          cursor: first.json.nextCursor,
        });
        expect(second.json.records.map((t: Json) => t.id)).toEqual(expected);
        expect(second.json).toMatchObject({ nextCursor: null, hasMore: false });
      }
    } finally {
      await theirs.close();
    }
  });

  it('lists definitions, and lists, gets, creates, updates and notes custom objects', async () => {
    const types = await callTool(client, 'list_fields');
    expect(types.json.customObjectDefinitions).toEqual(
      (await get(app, ws.token, '/v2/custom-object-definitions')).json.data
        .customObjectDefinitionList,
    );
    expect(types.json.recordTypes['custom-object']).toContain('create');

    const fields = await callTool(client, 'list_fields', {
      type: 'custom-object',
      definition: '계약서',
    });
    const apiFields = await get(
      app,
      ws.token,
      `/v2/field/custom-object?customObjectDefinitionId=${contract.id}`,
    );
    expect(fields.json.fields.map((f: Json) => f.name)).toEqual(
      apiFields.json.data.fieldList.map((f: Json) => f.name),
    );
    const amount = fields.json.fields.find((f: Json) => f.name === '계약 금액');
    expect(amount.write).toEqual({ in: 'fieldList', valueKey: 'numberValue' });

    const created = await callTool(client, 'create_record', {
      type: 'custom-object',
      definition: '계약서',
      name: '공급 계약',
      fieldList: [{ name: '계약 금액', numberValue: 1000 }],
      memo: '첫 메모',
    });
    expect(created.isError, JSON.stringify(created.json)).toBe(false);
    const id = created.json.data.customObject.id;
    expect(await customObject(id)).toMatchObject({
      customObjectDefinitionId: contract.id,
      이름: '공급 계약',
      '계약 금액': 1000,
      '최근 작성된 노트': '첫 메모',
    });

    const ticketMade = await callTool(client, 'create_record', {
      type: 'custom-object',
      definition: ticket.id,
      name: '문의',
    });
    expect(ticketMade.isError, JSON.stringify(ticketMade.json)).toBe(false);
    expect(
      (await customObject(ticketMade.json.data.customObject.id)).customObjectDefinitionId,
    ).toBe(ticket.id);

    const updated = await callTool(client, 'update_record', {
      type: 'custom-object',
      id,
      fieldList: [{ name: '계약 금액', numberValue: 2000 }],
    });
    expect(updated.isError, JSON.stringify(updated.json)).toBe(false);
    expect(updated.json.data.customObject.id).toBe(id);
    expect((await customObject(id))['계약 금액']).toBe(2000);

    const noted = await callTool(client, 'add_note', {
      type: 'custom-object',
      id,
      text: '엠씨피 메모',
    });
    expect(noted.isError, JSON.stringify(noted.json)).toBe(false);
    expect((await customObject(id))['최근 작성된 노트']).toBe('엠씨피 메모');

    const listed = await callTool(client, 'list_records', {
      type: 'custom-object',
      definition: contract.id,
      fieldList: ['계약 금액'],
    });
    const apiList = await get(
      app,
      ws.token,
      `/v2/custom-object?customObjectDefinitionId=${contract.id}&fieldList=${encodeURIComponent('계약 금액')}`,
    );
    expect(listed.json.records).toEqual(apiList.json.data.customObjectList);
    expect(listed.json.records.map((r: Json) => r.id)).toEqual([id]);
    const all = await callTool(client, 'list_records', { type: 'custom-object' });
    expect(all.json.records).toHaveLength(2);

    const read = await callTool(client, 'get_records', {
      type: 'custom-object',
      ids: [id, 'no-such-object'],
      fieldList: ['계약 금액'],
    });
    const apiRead = await get(
      app,
      ws.token,
      `/v2/custom-object/${id}?fieldList=${encodeURIComponent('계약 금액')}`,
    );
    expect(read.json).toEqual({
      records: [apiRead.json.data.customObject],
      missingIds: ['no-such-object'],
    });

    // Deleted only when confirmed; unconfirmed, the answer shows the record.
    const asked = await callTool(client, 'delete_record', { type: 'custom-object', id });
    expect(asked.json).toMatchObject({ deleted: false, wouldDelete: { id, 이름: '공급 계약' } });
    expect((await get(app, ws.token, `/v2/custom-object/${id}`)).status).toBe(200);
    const deleted = await callTool(client, 'delete_record', {
      type: 'custom-object',
      id,
      confirm: true,
    });
    expect(deleted.json).toEqual({ deleted: true, type: 'custom-object', id });
    expect((await get(app, ws.token, `/v2/custom-object/${id}`)).status).toBe(404);
    const again = await callTool(client, 'delete_record', { type: 'custom-object', id });
    expect(again.isError).toBe(true);
    expect(again.json.status).toBe(404);
  });

  it('answers bad arguments with tool errors that name what is wrong and what is close', async () => {
    const noRecord = await callTool(client, 'create_record', { type: 'todo', name: '고아' });
    expect(noRecord.isError).toBe(true);
    expect(noRecord.json.status).toBe(400);
    expect(noRecord.json.message).toContain('dealId');

    const badField = await callTool(client, 'create_record', {
      type: 'todo',
      dealId,
      fieldList: [{ name: '내욤', stringValue: 'x' }],
    });
    expect(badField.isError).toBe(true);
    expect(badField.json.closestFields).toContain('내용');

    const typeOnly = await callTool(client, 'list_todos', { type: 'deal' });
    expect(typeOnly.isError).toBe(true);
    const badCursor = await callTool(client, 'list_todos', {
      type: 'deal',
      id: dealId,
      cursor: 'not-a-cursor',
    });
    expect(badCursor.isError).toBe(true);
    const missingTodo = await callTool(client, 'update_record', {
      type: 'todo',
      id: 'no-such-todo',
      name: 'x',
    });
    expect(missingTodo.json.status).toBe(404);

    const noDefinition = await callTool(client, 'create_record', {
      type: 'custom-object',
      name: '정의 없음',
    });
    expect(noDefinition.isError).toBe(true);
    expect(noDefinition.json.definitions.map((d: Json) => d.name)).toEqual(['계약서', '티켓']);
    const closeDefinition = await callTool(client, 'list_records', {
      type: 'custom-object',
      definition: '계약',
    });
    expect(closeDefinition.isError).toBe(true);
    expect(closeDefinition.json.status).toBe(404);
    expect(closeDefinition.json.closestDefinitions).toEqual(['계약서']);

    const badObjectField = await callTool(client, 'create_record', {
      type: 'custom-object',
      definition: '계약서',
      name: '오류',
      fieldList: [{ name: '계약 금엑', numberValue: 1 }],
    });
    expect(badObjectField.isError).toBe(true);
    expect(badObjectField.json.closestFields).toContain('계약 금액');

    const tooMany = await callTool(client, 'get_records', {
      type: 'custom-object',
      ids: Array.from({ length: 11 }, (_, i) => `id${i}`),
    });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.json.message).toContain('10');

    const ignored = await callTool(client, 'create_record', {
      type: 'todo',
      name: '정의 무시',
      dealId,
      definition: '계약서',
    });
    expect(ignored.json.ignoredArguments).toEqual(['definition']);
  });

  it('lists sequences, enrolls a person and unenrolls them (with confirm), and lists files', async () => {
    const sequences = await callTool(client, 'list_sequences');
    expect(sequences.json).toEqual({
      records: (await get(app, ws.token, '/v2/sequence')).json.data.sequenceList,
      nextCursor: null,
      hasMore: false,
    });
    expect(sequences.json.records.map((s: Json) => s._id)).toEqual([sequenceId]);

    const enrolled = await callTool(client, 'enroll_in_sequence', {
      sequenceId,
      peopleId: personId,
    });
    expect(enrolled.isError, JSON.stringify(enrolled.json)).toBe(false);
    const enrollId = enrolled.json.data.sequenceEnrollment._id;
    const enrollments = await callTool(client, 'list_sequences', { sequenceId });
    expect(enrollments.json.records).toEqual(
      (await get(app, ws.token, `/v2/sequence/${sequenceId}/enrollment`)).json.data
        .sequenceEnrollmentList,
    );
    expect(enrollments.json.records.map((e: Json) => e.peopleId)).toEqual([personId]);
    const again = await callTool(client, 'enroll_in_sequence', { sequenceId, peopleId: personId });
    expect(again.isError).toBe(true);
    expect(again.json.status).toBe(409);
    const nobody = await callTool(client, 'enroll_in_sequence', { sequenceId, peopleId: 'nobody' });
    expect(nobody.json.status).toBe(404);

    const asked = await callTool(client, 'delete_record', { type: 'enrollment', id: enrollId });
    expect(asked.json.deleted).toBe(false);
    expect((await callTool(client, 'list_sequences', { sequenceId })).json.records).toHaveLength(1);
    const done = await callTool(client, 'delete_record', {
      type: 'enrollment',
      id: enrollId,
      confirm: true,
    });
    expect(done.json.deleted).toBe(true);
    expect(
      (await get(app, ws.token, `/v2/sequence/${sequenceId}/enrollment`)).json.data
        .sequenceEnrollmentList,
    ).toEqual([]);

    const files = await callTool(client, 'list_files', { type: 'deal', id: dealId });
    const apiFiles = await get(app, ws.token, `/v2/file?objectType=deal&objectId=${dealId}`);
    expect(files.json).toEqual({
      records: apiFiles.json.data.fileList,
      nextCursor: null,
      hasMore: false,
    });
    expect(files.json.records.map((f: Json) => f.id)).toEqual([fileId]);
    const noFiles = await callTool(client, 'list_files', { type: 'custom-object', id: 'nope' });
    expect(noFiles.json.status).toBe(404);
  });

  it("keeps another workspace's todos, custom objects, sequences and files out of reach", async () => {
    const todo = await callTool(client, 'create_record', { type: 'todo', name: '내 일', dealId });
    const todoId = todo.json.data.todo.id;
    const object = await callTool(client, 'create_record', {
      type: 'custom-object',
      definition: '계약서',
      name: '내 계약',
    });
    const objectId = object.json.data.customObject.id;
    const theirs = await httpClient(url, other.token);
    try {
      expect((await callTool(theirs, 'list_todos')).json.records).toEqual([]);
      const ofDeal = await callTool(theirs, 'list_todos', { type: 'deal', id: dealId });
      expect(ofDeal.json.status).toBe(404);
      const update = await callTool(theirs, 'update_record', {
        type: 'todo',
        id: todoId,
        name: 'x',
      });
      expect(update.json.status).toBe(404);
      const remove = await callTool(theirs, 'delete_record', {
        type: 'todo',
        id: todoId,
        confirm: true,
      });
      expect(remove.json.status).toBe(404);
      const read = await callTool(theirs, 'get_records', {
        type: 'custom-object',
        ids: [objectId],
      });
      expect(read.json).toEqual({ records: [], missingIds: [objectId] });
      const note = await callTool(theirs, 'add_note', {
        type: 'custom-object',
        id: objectId,
        text: 'x',
      });
      expect(note.json.status).toBe(404);
      const change = await callTool(theirs, 'update_record', {
        type: 'custom-object',
        id: objectId,
        name: 'x',
      });
      expect(change.json.status).toBe(404);
      const list = await callTool(theirs, 'list_records', {
        type: 'custom-object',
        definition: contract.id,
      });
      expect(list.json.status).toBe(404);
      expect((await callTool(theirs, 'list_fields')).json.customObjectDefinitions).toEqual([]);
      expect((await callTool(theirs, 'list_sequences')).json.records).toEqual([]);
      const enroll = await callTool(theirs, 'enroll_in_sequence', {
        sequenceId,
        peopleId: personId,
      });
      expect(enroll.json.status).toBe(404);
      const files = await callTool(theirs, 'list_files', { type: 'deal', id: dealId });
      expect(files.json.status).toBe(404);
    } finally {
      await theirs.close();
    }
    expect((await todos()).find((t) => t.id === todoId).내용).toBe('내 일');
    expect((await customObject(objectId)).이름).toBe('내 계약');
  });
});
