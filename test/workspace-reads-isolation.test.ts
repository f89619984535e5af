/**
 * Workspace isolation of the workspace-level reads: a token sees its own workspace's users,
 * teams, pipelines, todos, notes, web forms, submissions and fields, nothing of another
 * workspace, not even through filters, path ids or cursors.
 */
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appForFile,
  get,
  type TestStore,
  type TestWorkspace,
  testWorkspace,
  walk,
} from './helpers.ts';
import { seedWorkspaceReads, type WorkspaceSeed } from './workspace-seed.ts';

let store: TestStore;
let app: FastifyInstance;
appForFile((s, a) => {
  store = s;
  app = a;
});

type Side = { ws: TestWorkspace; seed: WorkspaceSeed };

/** The cursor lists, with what each must hold of its workspace's seed. */
const LISTS: { url: (s: Side) => string; listKey: string; ids?: (s: Side) => string[] }[] = [
  { url: () => '/v2/user', listKey: 'userList', ids: (s) => s.seed.users },
  { url: () => '/v2/team', listKey: 'teamList', ids: (s) => s.seed.teams },
  { url: () => '/v2/todo', listKey: 'todoList', ids: (s) => s.seed.todos },
  { url: () => '/v2/memo', listKey: 'memoList', ids: (s) => s.seed.memos },
  { url: () => '/v2/webForm', listKey: 'webFormList', ids: (s) => s.seed.webForms },
  { url: (s) => `/v2/webForm/${s.seed.webForm}/submit`, listKey: 'webFormSubmitList' },
];

/** Every id a side wrote (its workspace, users, teams, records), to look for in the other's answers. */
function allIds(s: Side): string[] {
  const { seed } = s;
  return [
    s.ws.workspaceId,
    ...seed.users,
    ...seed.teams,
    ...seed.dealPipelines,
    ...seed.leadPipelines,
    ...seed.todos,
    ...seed.memos,
    ...seed.webForms,
    ...seed.customFields,
    seed.deal,
    seed.lead,
    seed.person,
    seed.organization,
  ];
}

describe('workspace isolation of the workspace-level reads', () => {
  const side = {} as Record<'A' | 'B', Side>;
  beforeAll(async () => {
    for (const name of ['A', 'B'] as const) {
      const ws = await testWorkspace(store, `워크스페이스 ${name}`);
      side[name] = { ws, seed: await seedWorkspaceReads(ws, name) };
    }
  });

  for (const [me, them] of [
    ['A', 'B'],
    ['B', 'A'],
  ] as const) {
    it(`${me}'s token lists exactly ${me}'s records, none of ${them}'s`, async () => {
      const mine = side[me];
      const foreign = allIds(side[them]);
      const answers: string[] = [];
      for (const list of LISTS) {
        for (const limit of [1, 50]) {
          const { records } = await walk(
            app,
            mine.ws.token,
            `${list.url(mine)}?limit=${limit}`,
            list.listKey,
          );
          if (list.ids)
            expect(
              records.map((r) => r.id),
              list.listKey,
            ).toEqual(list.ids(mine));
          else expect(records.map((r) => r.peopleId)).toEqual(mine.seed.submissionPeople);
          answers.push(JSON.stringify(records));
        }
      }
      for (const url of [
        '/v2/deal/pipeline',
        '/v2/lead/pipeline',
        '/v2/user/me',
        '/v2/me',
        '/v2/pipeline',
        '/v2/field/todo',
        '/v2/field/people',
        `/v2/memo/${mine.seed.memos[0]}`,
      ]) {
        const res = await get(app, mine.ws.token, url);
        expect(res.status, url).toBe(200);
        answers.push(res.text);
      }
      const pipelines = (await get(app, mine.ws.token, '/v2/deal/pipeline')).json.data.pipelineList;
      expect(pipelines.map((p: { id: string }) => p.id)).toEqual(mine.seed.dealPipelines);
      const me_ = (await get(app, mine.ws.token, '/v2/user/me')).json.data.user;
      expect(me_.room).toEqual({ id: mine.ws.workspaceId, name: `워크스페이스 ${me}` });
      const todoFields = (await get(app, mine.ws.token, '/v2/field/todo')).json.data.fieldList;
      expect(todoFields.at(-1).id).toBe(mine.seed.customFields[0]);
      const text = answers.join('\n');
      for (const id of foreign) expect(text, `${them}'s ${id}`).not.toContain(id);
      expect(text).not.toContain(`${them} 우선순위`);
    });

    it(`${them}'s notes and web forms are not found with ${me}'s token, nor matched by filters`, async () => {
      const mine = side[me];
      const theirs = side[them].seed;
      for (const memoId of theirs.memos) {
        const res = await get(app, mine.ws.token, `/v2/memo/${memoId}`);
        expect(res.status).toBe(404);
        expect(Object.keys(res.json)).toEqual(['success', 'message', 'reason']);
        const nowhere = `${memoId.slice(0, -1)}${memoId.endsWith('0') ? '1' : '0'}`;
        const none = await get(app, mine.ws.token, `/v2/memo/${nowhere}`);
        expect(res.json.message.replaceAll(memoId, 'ID')).toBe(
          none.json.message.replaceAll(nowhere, 'ID'),
        );
      }
      for (const formId of theirs.webForms) {
        const res = await get(app, mine.ws.token, `/v2/webForm/${formId}/submit`);
        expect(res.status).toBe(404);
        expect(res.text).not.toContain(theirs.person);
      }
      for (const filter of [
        `dealId=${theirs.deal}`,
        `leadId=${theirs.lead}`,
        `peopleId=${theirs.person}`,
        `organizationId=${theirs.organization}`,
        `ownerId=${side[them].ws.userId}`,
      ]) {
        const res = await get(app, mine.ws.token, `/v2/memo?${filter}`);
        expect(res.text, filter).toBe('{"success":true,"data":{"memoList":[],"nextCursor":null}}');
      }
    });

    it(`${them}'s cursors are refused with ${me}'s token on every list`, async () => {
      for (const list of LISTS) {
        // The submissions list of the same form id: only the owner's form exists.
        const url = list.url(side[them]);
        const first = await get(app, side[them].ws.token, `${url}?limit=1`);
        const cursor = first.json.data.nextCursor;
        expect(typeof cursor, url).toBe('string');
        const res = await get(app, side[me].ws.token, `${list.url(side[me])}?cursor=${cursor}`);
        expect(res.status, url).toBe(400);
        expect(res.json.message).toContain("'cursor'");
        const own = await get(app, side[them].ws.token, `${url}?cursor=${cursor}`);
        expect(own.status, url).toBe(200);
      }
    });
  }
});
