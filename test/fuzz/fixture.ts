/**
 * The workspaces the operation fuzz runs in: the one its requests act in (`m`) and another
 * (`o`) whose ids the invalid requests borrow, and whose records carry a marker that no answer
 * to `m` may contain. Also the records a valid request may use up (`fresh`): a deal to
 * delete, two people to merge.
 */
import type { FastifyInstance } from 'fastify';
import { newId } from '../../src/domain/ids.ts';
import { defineCustomField, deleteCustomField } from '../../src/resources/custom-fields/writes.ts';
import { defineCustomObject } from '../../src/resources/custom-objects/commands.ts';
import { insertCustomObject } from '../../src/resources/custom-objects/writes.ts';
import { recordHistory } from '../../src/resources/record-history/writes.ts';
import { insertRecordings } from '../../src/resources/recordings/writes.ts';
import {
  insertSequenceSteps,
  insertSequences,
  insertTimelineEvents,
} from '../../src/resources/sequences/writes.ts';
import { bumpCatalogVersion } from '../../src/store/catalog.ts';
import type { Store } from '../../src/store/database.ts';
import {
  makeActivity,
  makeDeal,
  makeEnrollment,
  makeFile,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makePipeline,
  makeProduct,
  makeQuote,
  makeTodo,
  type TestPipeline,
} from '../factories.ts';
import { get, type TestWorkspace, testWorkspace } from '../helpers.ts';
import { insertWebhook } from '../webhook-fixtures.ts';
import { seedWorkspaceReads, type WorkspaceSeed } from '../workspace-seed.ts';

/** Text in the names of the other workspace's records: never in an answer to `m`. */
export const FOREIGN_MARKER = '타사비밀';

/** The record types a path or body id can name. */
export type Kind =
  | 'people'
  | 'organization'
  | 'deal'
  | 'lead'
  | 'product'
  | 'quote'
  | 'memo'
  | 'todo'
  | 'webForm'
  | 'webhook'
  | 'delivery'
  | 'user'
  | 'pipeline'
  | 'stage'
  | 'field'
  | 'sequence'
  | 'enrollment'
  | 'customObject'
  | 'customObjectDefinition'
  | 'file'
  | 'email'
  | 'recording';

/** One seeded workspace. */
export interface Side {
  ws: TestWorkspace;
  seed: WorkspaceSeed;
  ids: Record<Kind, string[]>;
  dealPipe: TestPipeline;
  leadPipe: TestPipeline;
  /** Names of the deal pipelines and their stages. */
  dealPipelines: { name: string; stages: string[] }[];
  /** Custom object definitions: the first without a pipeline, the second with one. */
  customObjectDefs: {
    id: string;
    name: string;
    pipelineId: string | null;
    stageIds: string[];
    /** Its number field. */
    amountField: string;
  }[];
  /**
   * Custom fields of the fuzz's own, that field updates may rename and add options to: no
   * other generator names them (they are made after `Fixture.fields` is read).
   */
  ownFields: OwnField[];
}

/** A custom field made for the field updates of the fuzz. */
export interface OwnField {
  /** The `{type}` of its path. */
  type: string;
  id: string;
  select: boolean;
}

export interface Fixture {
  store: Store;
  m: Side;
  o: Side;
  /** Field names by record type, as `GET /v2/field/{type}` lists them. */
  fields: Record<string, string[]>;
  /** The loopback URL of a receiver that answers 200 (webhook URLs). */
  hookUrl: string;
  /** Real cursors of some lists, of both workspaces: a cursor is bound to its endpoint and workspace. */
  cursors: { path: string; cursor: string; of: 'm' | 'o' }[];
  /** Removes the webhooks of `m` made by requests, so creates stay under the limit; true if it did. */
  trimWebhooks(): Promise<boolean>;
  /**
   * Removes the custom fields of `m` made by requests once there are `FIELDS_KEPT` of them:
   * each field is a key of every stored record of its type, so a run of 10,000 creates
   * would make every later write (and each create, which rewrites every body of its type)
   * slower and slower (on PostgreSQL, 1,000 valid creates took 394 s). True if it did.
   */
  trimFields(): Promise<boolean>;
  /** How many records `fresh` has made. */
  made: number;
  /** A record of `kind` made in `m` for one request that uses it up. */
  fresh(
    kind:
      | 'people'
      | 'organization'
      | 'deal'
      | 'lead'
      | 'product'
      | 'todo'
      | 'customObject'
      | 'webhook'
      | 'enrollment'
      | 'file'
      | 'recording',
  ): Promise<string>;
}

async function seedSide(store: Store, name: string, tag: string, hookUrl: string): Promise<Side> {
  const ws = await testWorkspace(store, name);
  const seed = await seedWorkspaceReads(ws, tag);
  const more = await ws.write(async (w) => {
    const dealPipe = await makePipeline(w, { name: `${tag} 영업` });
    const leadPipe = await makePipeline(w, {
      kind: 'lead',
      name: `${tag} 리드 접수`,
      stages: ['접수', '검토'],
    });
    await defineCustomField(w, { recordType: 'deal', name: `${tag} 확률`, type: 'number' });
    const org2 = await makeOrganization(w, { name: `${tag} 두번째 회사` });
    const person2 = await makePerson(w, { name: `${tag} 두번째 고객`, organizationId: org2 });
    const person3 = await makePerson(w, { name: `${tag} 세번째 고객` });
    const deal2 = await makeDeal(w, {
      name: `${tag} 두번째 딜`,
      peopleId: person2,
      pipelineId: dealPipe.id,
      stageId: dealPipe.stage['미팅'],
    });
    // A custom Ref field the stage deals point at the second person with (for the custom
    // association read, which then has pages).
    const referrer = await defineCustomField(w, {
      recordType: 'deal',
      name: `${tag} 추천인`,
      type: 'people',
    });
    for (const stage of dealPipe.stageIds) {
      await makeDeal(w, {
        name: `${tag} 단계 딜`,
        peopleId: person3,
        pipelineId: dealPipe.id,
        stageId: stage,
        custom: { [referrer]: person2 },
      });
    }
    const lead2 = await makeLead(w, {
      name: `${tag} 두번째 리드`,
      organizationId: org2,
      pipelineId: leadPipe.id,
      stageId: leadPipe.stage['접수'],
    });
    const products = [
      await makeProduct(w, { name: `${tag} 상품` }),
      await makeProduct(w, { name: `${tag} 월 구독`, kind: '구독 (월간)' }),
    ];
    const quotes = [
      await makeQuote(w, {
        dealId: deal2,
        name: `${tag} 견적`,
        lines: [{ productId: products[0]! }],
      }),
    ];
    const memo = await makeNote(w, { subjectType: 'people', subjectId: person2 });
    // Files on the first deal (enough for pages of a few), and one attached to nothing.
    const files: string[] = [];
    for (let i = 0; i < 5; i++) {
      files.push(
        await makeFile(w, {
          name: `${tag} 파일 ${i}.txt`,
          subject: { type: 'deal', id: seed.deal },
        }),
      );
    }
    files.push(await makeFile(w, { name: `${tag} 첨부.txt`, subject: null }));
    // Recordings of the first deal and person, each holding an audio file of its own.
    const recordings = await insertRecordings(
      w,
      await Promise.all(
        (
          [
            ['deal', seed.deal],
            ['people', seed.person],
          ] as const
        ).map(async ([subjectType, subjectId]) => ({
          fileId: await makeFile(w, {
            name: `${tag} 통화.mp3`,
            subject: null,
            contentType: 'audio/mpeg',
          }),
          subjectType,
          subjectId,
          title: `${tag} 통화`,
          duration: 120,
          segments: [{ startTime: 0, endTime: 900, text: tag, speakerId: 's', confidence: 0.5 }],
          speakers: [{ speakerId: 's', label: tag }],
          ownerId: ws.userId,
        })),
      ),
    );
    // Activities of each record type, on dates around 2024-04-08, so that lists have pages.
    const subjects = [
      ['people', seed.person],
      ['organization', seed.organization],
      ['deal', seed.deal],
      ['lead', seed.lead],
    ] as const;
    for (const [subjectType, subjectId] of subjects) {
      for (const [i, type] of (['email', 'emailOpen', 'meeting', 'create'] as const).entries()) {
        const date = new Date(Date.UTC(2024, 3, 1 + i * 3)).toISOString();
        await makeActivity(w, { subjectType, subjectId, type, date });
      }
    }
    // Three sequences of three steps, with three enrollments each, whose timelines have
    // three events: each sequence list has a second page at a `limit` of 1 or 2.
    const sequences = await insertSequences(w, [
      { name: `${tag} 시퀀스 1`, description: `${tag} 설명` },
      `${tag} 시퀀스 2`,
      `${tag} 시퀀스 3`,
    ]);
    for (const sequenceId of sequences) {
      await insertSequenceSteps(w, [
        {
          sequenceId,
          index: 0,
          type: 'sendEmail',
          executeImmediately: true,
          businessDay: 0,
          executionTime: null,
        },
        {
          sequenceId,
          index: 1,
          type: 'createTodo',
          executeImmediately: false,
          businessDay: 2,
          executionTime: '0900',
        },
        {
          sequenceId,
          index: 2,
          type: 'sendEmail',
          executeImmediately: false,
          businessDay: 3,
          executionTime: '1400',
        },
      ]);
    }
    const enrollments: string[] = [];
    for (const subjectId of [person2, person3, seed.person]) {
      for (const sequenceId of sequences) {
        enrollments.push(await makeEnrollment(w, { sequenceId, subjectType: 'people', subjectId }));
      }
    }
    for (const enrollmentId of enrollments) {
      await insertTimelineEvents(w, [
        { enrollmentId, eventType: 'sendEmail', stepIndex: 0, date: '2024-04-08T01:00:00.000Z' },
        { enrollmentId, eventType: 'emailOpen', stepIndex: 0, date: '2024-04-08T02:00:00.000Z' },
        { enrollmentId, eventType: 'emailReply', stepIndex: 0, date: '2024-04-08T03:00:00.000Z' },
      ]);
    }
    const customObjectDefs = [];
    const customObjects = [];
    for (const [i, stages] of [undefined, ['접수', '완료']].entries()) {
      const amountField = `${tag} 금액`;
      const def = await defineCustomObject(w, {
        name: `${tag} 객체 ${i}`,
        fields: [{ name: amountField, type: 'number' }],
        stages,
      });
      const stageIds = def.pipelineId
        ? (
            await w.trx
              .selectFrom('pipeline_stages')
              .select('id')
              .where('workspace_id', '=', w.workspaceId)
              .where('pipeline_id', '=', def.pipelineId)
              .orderBy('position')
              .execute()
          ).map((s) => s.id)
        : [];
      customObjectDefs.push({ ...def, stageIds, amountField });
      const recordId = await insertCustomObject(w, {
        definitionId: def.id,
        name: `${tag} 커스텀 레코드 ${i}`,
        pipelineId: def.pipelineId,
        stageId: stageIds[0] ?? null,
      });
      customObjects.push(recordId);
      // Activities and changes, so that their lists have pages.
      for (const [j, type] of (
        ['create', 'memoCreate', 'todoCreate', 'email'] as const
      ).entries()) {
        const date = new Date(Date.UTC(2024, 3, 1 + j * 3)).toISOString();
        await makeActivity(w, { subjectType: 'customObject', subjectId: recordId, type, date });
      }
      await recordHistory(
        w,
        [1, 2, 3].map((n) => ({
          subjectType: 'customObject' as const,
          subjectId: recordId,
          type: 'editField' as const,
          fieldName: amountField,
          fieldValue: String(n),
          ownerId: null,
        })),
      );
    }
    return {
      dealPipe,
      leadPipe,
      org2,
      person2,
      person3,
      deal2,
      lead2,
      products,
      quotes,
      memo,
      sequences,
      enrollments,
      files,
      recordings,
      customObjectDefs,
      customObjects,
    };
  });
  const webhook = await insertWebhook(store, ws.workspaceId, {
    url: `${hookUrl}?${tag}`,
    objectTypes: ['people', 'deal'],
  });
  const emailId = newId();
  await store.db
    .insertInto('emails')
    .values({
      workspace_id: ws.workspaceId,
      id: emailId,
      status: 'delivery',
      subject: `${tag} 메일`,
      from_address: JSON.stringify({ email: 'admin@example.com', name: null }),
      to_list: JSON.stringify([{ email: 'kim@example.com', name: tag }]),
      cc_list: '[]',
      bcc_list: '[]',
      html_body: `<p>${tag}</p>`,
      text_body: tag,
      attachment_ids: '[]',
      message_id: `<${emailId}@example.com>`,
      sender_id: ws.userId,
      idempotency_key: null,
      request_hash: '',
      created_at: new Date().toISOString(),
    })
    .execute();
  const deliveryId = newId();
  await store.db
    .insertInto('webhook_deliveries')
    .values({
      workspace_id: ws.workspaceId,
      id: deliveryId,
      webhook_id: webhook.id,
      event_seq: 1,
      status: 'failed',
      attempt_count: 1,
      last_status_code: 500,
      last_error: null,
      next_attempt_at: null,
      leased_until: null,
      delivered_at: null,
      created_at: new Date().toISOString(),
    })
    .execute();
  // Three deliveries of each status, so that the delivery log has a second page whatever
  // status it is filtered by.
  const statuses = [
    'failed',
    'failed',
    'pending',
    'pending',
    'pending',
    'delivered',
    'delivered',
    'delivered',
  ] as const;
  for (const [i, status] of statuses.entries()) {
    await store.db
      .insertInto('webhook_deliveries')
      .values({
        workspace_id: ws.workspaceId,
        id: newId(),
        webhook_id: webhook.id,
        event_seq: 2 + i,
        status,
        attempt_count: status === 'pending' ? 0 : 1,
        last_status_code: status === 'pending' ? null : status === 'failed' ? 500 : 200,
        last_error: null,
        next_attempt_at: null,
        leased_until: null,
        delivered_at: status === 'delivered' ? new Date().toISOString() : null,
        created_at: new Date().toISOString(),
      })
      .execute();
  }
  const dealPipelines = await store.db
    .selectFrom('pipelines')
    .select(['id', 'name'])
    .where('workspace_id', '=', ws.workspaceId)
    .where('kind', '=', 'deal')
    .execute();
  const stages = await store.db
    .selectFrom('pipeline_stages')
    .select(['pipeline_id', 'name', 'id'])
    .where('workspace_id', '=', ws.workspaceId)
    .execute();
  return {
    ws,
    seed,
    dealPipe: more.dealPipe,
    leadPipe: more.leadPipe,
    customObjectDefs: more.customObjectDefs,
    dealPipelines: dealPipelines.map((p) => ({
      name: p.name,
      stages: stages.filter((s) => s.pipeline_id === p.id).map((s) => s.name),
    })),
    ids: {
      people: [seed.person, more.person2, more.person3],
      organization: [seed.organization, more.org2],
      deal: [seed.deal, more.deal2],
      lead: [seed.lead, more.lead2],
      product: more.products,
      quote: more.quotes,
      memo: [...seed.memos, more.memo],
      todo: seed.todos,
      webForm: seed.webForms,
      webhook: [webhook.id],
      delivery: [deliveryId],
      user: seed.users,
      pipeline: [...seed.dealPipelines, ...seed.leadPipelines, more.dealPipe.id, more.leadPipe.id],
      stage: stages.map((s) => s.id),
      customObject: more.customObjects,
      customObjectDefinition: more.customObjectDefs.map((d) => d.id),
      field: [],
      sequence: more.sequences,
      enrollment: more.enrollments,
      file: more.files,
      email: [emailId],
      recording: more.recordings,
    },
    ownFields: [],
  };
}

/** The `{type}` paths of `/v2/field/{type}` and the record type each stores. */
/** How many fields made by requests `trimFields` lets pile up before it removes them. */
const FIELDS_KEPT = 50;

const OWN_FIELD_TYPES = [
  ['people', 'people'],
  ['deal', 'deal'],
  ['quote-product', 'quoteProduct'],
  ['todo', 'todo'],
] as const;

/** A text and a select field of the side's own on a few record types (ids under `field`). */
async function addOwnFields(side: Side, tag: string): Promise<void> {
  await side.ws.write(async (w) => {
    for (const [type, recordType] of OWN_FIELD_TYPES) {
      const text = await defineCustomField(w, {
        recordType,
        name: `${tag} 고칠 글 필드`,
        type: 'string',
      });
      const select = await defineCustomField(w, {
        recordType,
        name: `${tag} 고칠 선택 필드`,
        type: 'singleSelect',
        options: ['처음'],
      });
      side.ownFields.push({ type, id: text, select: false }, { type, id: select, select: true });
      side.ids.field.push(text, select);
    }
  });
}

/** Seeds both workspaces and reads the field catalogue through the API. */
export async function makeFixture(
  store: Store,
  app: FastifyInstance,
  hookUrl: string,
): Promise<Fixture> {
  const m = await seedSide(store, '퍼즈 워크스페이스', '퍼즈', hookUrl);
  const o = await seedSide(store, '다른 워크스페이스', FOREIGN_MARKER, hookUrl);
  const fields: Record<string, string[]> = {};
  for (const type of ['people', 'organization', 'deal', 'lead', 'product', 'custom-object']) {
    const res = await get(app, m.ws.token, `/v2/field/${type}`);
    fields[type] = (res.json.data.fieldList as { name: string }[]).map((f) => f.name);
  }
  await addOwnFields(m, '퍼즈');
  await addOwnFields(o, FOREIGN_MARKER);
  const cursors: Fixture['cursors'] = [];
  for (const [path, key] of [
    ['/v2/user', 'nextCursor'],
    ['/v2/team', 'nextCursor'],
    ['/v2/people', 'nextCursor'],
    ['/v2/deal', 'nextCurosr'],
    ['/v2/memo', 'nextCursor'],
    ['/v2/sequence', 'nextCursor'],
    ['/v2/file', 'nextCursor'],
  ] as const) {
    for (const [of, side] of [
      ['m', m],
      ['o', o],
    ] as const) {
      const filter = path === '/v2/file' ? `&objectType=deal&objectId=${side.seed.deal}` : '';
      const res = await get(app, side.ws.token, `${path}?limit=1${filter}`);
      cursors.push({ path, cursor: res.json.data[key], of });
    }
  }
  const trimWebhooks = async () => {
    const count = await store.db
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('workspace_id', '=', m.ws.workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) < 50) return false;
    await store.transaction(async (trx) => {
      await trx
        .deleteFrom('webhooks')
        .where('workspace_id', '=', m.ws.workspaceId)
        .where('id', 'not in', m.ids.webhook)
        .execute();
      await bumpCatalogVersion(trx, m.ws.workspaceId);
    });
    return true;
  };
  const fieldIds = async () =>
    (
      await store.db
        .selectFrom('custom_fields')
        .select('id')
        .where('workspace_id', '=', m.ws.workspaceId)
        .execute()
    ).map((f) => f.id);
  // The fields of `m` before any request: the rest were made by requests.
  const ownFieldIds = new Set(await fieldIds());
  const trimFields = async () => {
    const made = (await fieldIds()).filter((id) => !ownFieldIds.has(id));
    if (made.length < FIELDS_KEPT) return false;
    await m.ws.write(async (w) => {
      for (const id of made) await deleteCustomField(w, id);
    });
    return true;
  };
  const fixture: Fixture = {
    store,
    m,
    o,
    fields,
    hookUrl,
    cursors,
    trimWebhooks,
    trimFields,
    made: 0,
    async fresh(kind) {
      fixture.made += 1;
      if (kind === 'webhook') {
        await trimWebhooks();
        return (await insertWebhook(store, m.ws.workspaceId, { url: `${hookUrl}?fresh` })).id;
      }
      return m.ws.write(async (w) => {
        if (kind === 'file') return makeFile(w, { name: '퍼즈 소모 파일.txt', subject: null });
        if (kind === 'recording') {
          const fileId = await makeFile(w, { name: '퍼즈 소모 통화.mp3', subject: null });
          const [id] = await insertRecordings(w, [
            {
              fileId,
              subjectType: 'deal',
              subjectId: m.ids.deal[0]!,
              title: '퍼즈 소모 통화',
              duration: 1,
              ownerId: null,
            },
          ]);
          return id!;
        }
        if (kind === 'people') return makePerson(w, { name: '퍼즈 병합 고객' });
        if (kind === 'organization')
          return makeOrganization(w, { name: `퍼즈 병합 회사 ${uniq()}` });
        if (kind === 'deal')
          return makeDeal(w, { name: '퍼즈 소모 딜', peopleId: m.ids.people[0] });
        if (kind === 'product') return makeProduct(w, { name: '퍼즈 소모 상품' });
        if (kind === 'todo')
          return makeTodo(w, {
            subjectType: 'deal',
            subjectId: m.ids.deal[0]!,
            title: '퍼즈 소모 할 일',
          });
        if (kind === 'customObject')
          return insertCustomObject(w, {
            definitionId: m.ids.customObjectDefinition[0]!,
            name: '퍼즈 소모 커스텀 레코드',
          });
        if (kind === 'enrollment') {
          const person = await makePerson(w, { name: '퍼즈 등록 고객' });
          return makeEnrollment(w, {
            sequenceId: m.ids.sequence[1]!,
            subjectType: 'people',
            subjectId: person,
          });
        }
        return makeLead(w, { name: '퍼즈 소모 리드', organizationId: m.ids.organization[0] });
      });
    },
  };
  return fixture;
}

let counter = 0;
/** A suffix no other name of the run has (organization names are unique per workspace). */
export function uniq(): string {
  counter += 1;
  return `#${counter}`;
}
