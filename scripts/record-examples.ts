/**
 * Records the OpenAPI document's examples from real answers: builds a small demo workspace
 * in a temporary database, calls every `/v2` operation once, and keeps each answer with its
 * lists cut to their first record. Run with `npm run openapi:examples`; it rewrites
 * `src/api-schema/examples.json`, which `test/openapi.test.ts` checks against the schemas.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OperationExamples } from '../src/api-schema/openapi.ts';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { pathParameters } from '../src/api-schema/operations/operation.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { buildApp } from '../src/server/app.ts';
import { openStore } from '../src/store/database.ts';
import { startSmtpSink } from '../test/smtp-sink.ts';

type Json = Record<string, unknown>;

/** Where the examples say webhooks are: the local receiver's origin is shown as this. */
const EXAMPLE_RECEIVER = 'https://hooks.example.com';

/**
 * Lists of records in an answer cut to their first record, so an example stays readable;
 * lists of values (a webhook's `eventList`) are kept whole.
 */
function firstOfEachList(value: unknown): unknown {
  if (Array.isArray(value)) {
    const records = value.some((v) => v !== null && typeof v === 'object');
    return (records ? value.slice(0, 1) : value).map(firstOfEachList);
  }
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, firstOfEachList(v)]));
}

/** The first record under `data` of an answer. */
function firstRecord(answer: Json): Json {
  const data = answer.data as Json;
  const list = Object.values(data).find(Array.isArray) as Json[];
  return list[0]!;
}

/** Bodies of the writes, given the ids the demo has. */
function writeBodies(ids: Record<string, string>): Record<string, unknown> {
  return {
    createPeople: { name: '예시 고객', memo: '첫 통화에서 관심을 보임' },
    updatePeople: { fieldList: [{ name: '포지션', stringValue: '팀장' }] },
    createOrganization: { name: '예시 주식회사' },
    updateOrganization: { fieldList: [{ name: '전화', stringValue: '02-123-4567' }] },
    createDeal: {
      name: '예시 딜',
      pipelineId: ids.pipelineId,
      pipelineStageId: ids.pipelineStageId,
      status: 'In progress',
      peopleId: ids.peopleId,
      price: 1_200_000,
    },
    updateDeal: { price: 1_500_000 },
    createLead: { name: '예시 리드', peopleId: ids.peopleId },
    updateLead: { name: '예시 리드 (수정)' },
    createProduct: { name: '예시 상품', price: 50_000 },
    updateProduct: { price: 55_000, fieldList: [{ name: '단위', stringValue: '개' }] },
    createCustomObject: {
      customObjectDefinitionName: '계약서',
      fieldList: [
        { name: '이름', stringValue: '예시 계약서' },
        { name: '딜', dealValueId: ids.dealId },
        { name: '계약 금액', numberValue: 1_200_000 },
      ],
      memo: '법무 검토 요청',
    },
    updateCustomObject: { fieldList: [{ name: '계약 상태', stringValue: '서명 완료' }] },
    createQuote: {
      name: '예시 견적서',
      dealId: ids.dealId,
      quoteProductList: [{ productId: ids.productId, amount: 2 }],
    },
    createWebhook: {
      url: `${ids.receiver}/salescrm/deals`,
      objectTypeList: ['deal'],
      eventList: ['생성', '수정'],
      fieldList: ['파이프라인 단계', '금액'],
    },
    updateWebhook: { eventList: ['생성', '수정', '삭제', '병합'], fieldList: null },
    searchObjects: {
      filterGroupList: [
        { filters: [{ fieldName: '이름', operator: 'CONTAINS', value: '민' }] },
        { filters: [{ fieldName: '고객 등급', operator: 'EQ', value: 'VIP' }] },
      ],
      sortList: [{ fieldName: '이름', direction: 'asc' }],
      fieldList: ['이메일', '고객 등급'],
      limit: 2,
    },
    batchReadObjects: {
      objectType: 'people',
      idList: [ids.peopleId, 'no-such-id'],
      fieldList: ['이름', '이메일', '전화'],
    },
    batchCreateObjects: {
      objectType: 'deal',
      inputList: [
        {
          data: {
            이름: '예시 일괄 딜',
            파이프라인: ids.pipelineId,
            '파이프라인 단계': ids.pipelineStageId,
            상태: 'In progress',
            금액: 900_000,
          },
          association: { people: ids.peopleId },
        },
      ],
    },
    batchUpdateObjects: {
      objectType: 'people',
      inputList: [{ id: ids.peopleId, data: { 포지션: '이사' } }],
    },
    createField: {
      name: '예시 필드',
      type: 'singleSelect',
      description: '예시로 만든 선택 필드',
      showInCreateForm: true,
      options: [{ value: '상' }, { value: '하' }],
    },
    updateField: { name: '예시 필드 (수정)', options: [{ value: '중' }] },
    createTodo: {
      dealId: ids.dealId,
      fieldList: [
        { name: '내용', stringValue: '견적 후속 전화' },
        { name: '유형', stringValue: '전화' },
        { name: '마지막 날짜', dateValue: '2024-04-12T01:00:00.000Z' },
      ],
    },
    updateTodo: { fieldList: [{ name: '완료', booleanValue: true }] },
    addPersonMemo: { text: '다음 주 데모 일정 확정', typeId: 'memo-type-call' },
    addOrganizationMemo: { text: '연간 계약 검토 중' },
    addDealMemo: { text: '예산 승인 대기', typeId: 'memo-type-meeting' },
    addLeadMemo: { text: '웨비나 참석자' },
    addCustomObjectMemo: { text: '계약서 초안 검토 요청' },
    addProductMemo: { memo: '다음 분기 가격 인상 예정' },
    addQuoteMemo: { htmlBody: '<p>할인율 <b>10%</b> 승인됨</p>' },
    addTodoMemo: { text: '통화 전에 견적서를 다시 확인' },
    enrollInSequence: { peopleId: ids.enrollPeopleId },
    batchListPipelines: { objectType: 'deal' },
    batchListAssociations: { objectType: 'deal' },
  };
}

/** Calls every `/v2` operation on a fresh demo workspace and returns the answers by operation. */
export async function recordExamples(): Promise<OperationExamples> {
  const dir = mkdtempSync(join(tmpdir(), 'salescrm-examples-'));
  const store = openStore(`sqlite:${join(dir, 'examples.db')}`);
  // A webhook receiver for the webhook operations: it answers every POST with 204.
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // An SMTP server that takes every message and keeps none, for the e-mail operations.
  const smtp = await startSmtpSink();
  const origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  try {
    await store.migrate();
    const demo = await createDemoWorkspace(store, { seed: 7, people: 30 });
    const app = await buildApp({
      store,
      config: {
        basePath: '',
        rateLimitMax: 0,
        rateLimitWindowMs: 10_000,
        pageCacheBytes: 0,
        logLevel: 'silent',
        logRequests: false,
        webhookAllowPrivate: true,
        smtpUrl: smtp.url,
      },
    });
    const headers = { authorization: `Bearer ${demo.token}` };
    const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Json;
    };
    const first = async (url: string) => firstRecord(await call('GET', url));
    const pipeline = await first('/v2/deal/pipeline');
    const ids: Record<string, string> = {
      peopleId: (await first('/v2/people')).id as string,
      organizationId: (await first('/v2/organization')).id as string,
      dealId: (await first('/v2/deal')).id as string,
      leadId: (await first('/v2/lead')).id as string,
      productId: (await first('/v2/product')).id as string,
      memoId: (await first('/v2/memo')).id as string,
      todoId: (await first('/v2/todo')).id as string,
      quoteId: (await store.db.selectFrom('quotes').select('id').executeTakeFirstOrThrow()).id,
      webFormId: (await first('/v2/webForm')).id as string,
      customObjectId: (await first('/v2/custom-object')).id as string,
      pipelineId: pipeline.id as string,
      pipelineStageId: (pipeline.pipelineStageList as Json[])[0]!.id as string,
      type: 'people',
      targetType: 'people',
      receiver: origin,
    };
    // A webhook, and a write it gets a delivery of, for the webhook reads.
    const webhook = await call('POST', '/v2/webhook', {
      url: `${origin}/salescrm`,
      objectTypeList: ['people', 'deal'],
    });
    ids.webhookId = ((webhook.data as Json).webhook as Json).id as string;
    await call('POST', '/v2/people', { name: '웹훅 예시 고객' });
    ids.deliveryId = (await first(`/v2/webhook/${ids.webhookId}/delivery`)).id as string;
    // A sequence, an enrollment of it whose timeline has events, and a person to enroll.
    ids.sequenceId = (((await call('GET', '/v2/sequence')).data as Json).sequenceList as Json[])[0]!
      ._id as string;
    ids.enrollId = await enrollmentWithTimeline(app, headers, call);
    // The association reads: a person's deals (the custom ones are recorded below, of a
    // person a deal names as its 추천인, a custom Ref field).
    ids.targetId = (await first('/v2/deal')).peopleId as string;
    ids.toTargetType = 'deal';
    ids.enrollPeopleId = (
      ((await call('POST', '/v2/people', { name: '시퀀스 예시 고객' })).data as Json).people as Json
    ).id as string;
    const examples: OperationExamples = {};
    // A file on the deal, for the file reads (the upload is multipart, not JSON).
    const upload = async (
      name: string,
      content = { type: 'application/pdf', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') },
    ) => {
      const boundary = 'salescrm-example';
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="objectType"\r\n\r\ndeal\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="objectId"\r\n\r\n${ids.dealId}\r\n` +
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
            `Content-Type: ${content.type}\r\n\r\n`,
        ),
        content.bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/v2/file',
        headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      if (res.statusCode !== 201) throw new Error(`POST /v2/file: ${res.statusCode} ${res.body}`);
      return res.json() as Json;
    };
    const uploaded = await upload('견적서.pdf');
    examples.uploadFile = uploaded;
    ids.fileId = (uploaded.data as Json).id as string;
    const sent = await call('POST', '/v2/email', {
      emailProvider: 'gmail',
      toAddressList: [{ email: 'customer@example.com', name: '김고객' }],
      subject: '견적서 보내 드립니다',
      htmlBody: '<p>안녕하세요, 견적서를 첨부합니다.</p>',
      attachmentIdList: [ids.fileId],
    });
    examples.sendEmail = sent;
    ids.emailId = (sent.data as Json).id as string;
    // A recording of the deal: its audio uploaded first, then the recording that holds it.
    const recording = async (title: string) => {
      const audio = await upload(`${title}.mp3`, {
        type: 'audio/mpeg',
        bytes: Buffer.from('ID3\u0004\u0000\u0000\u0000\u0000\u0000\u0000', 'latin1'),
      });
      return call('POST', '/v2/recording', {
        fileId: (audio.data as Json).id,
        objectType: 'deal',
        objectId: ids.dealId,
        title,
        duration: 754,
        coreSummary: '도입 일정과 예산을 확인함. 다음 주 데모 약속.',
        transcriptSegmentList: [
          {
            startTime: 0,
            endTime: 4200,
            text: '안녕하세요, 지난번 문의 주신 건으로 연락드렸습니다.',
            speakerId: 'spk-1',
            confidence: 0.94,
          },
          {
            startTime: 4200,
            endTime: 9800,
            text: '네, 도입 일정부터 여쭤봐도 될까요?',
            speakerId: 'spk-2',
            confidence: 0.91,
          },
        ],
        speakerInfoList: [
          { speakerId: 'spk-1', label: '영업 담당' },
          { speakerId: 'spk-2', label: '고객' },
        ],
      });
    };
    examples.createRecording = await recording('도입 상담 통화');
    ids.recordingId = (((examples.createRecording as Json).data as Json).recording as Json)
      .id as string;
    const queries: Record<string, string> = {
      listFiles: `?objectType=deal&objectId=${ids.dealId}`,
    };
    // Reads first, then creates and updates; deletes and merges last, on records made for them.
    const last = (op: (typeof OPERATIONS)[number]) => /\/(delete|merge)$/.test(op.path);
    const ordered = [
      ...OPERATIONS.filter((op) => op.api && op.method === 'GET'),
      ...OPERATIONS.filter((op) => op.api && op.method === 'POST' && !last(op)),
    ];
    for (const op of ordered) {
      // The upload is above; a download answers bytes, not JSON.
      if (op.form || !op.response || examples[op.operationId] !== undefined) continue;
      let url = op.path + (queries[op.operationId] ?? '');
      for (const name of pathParameters(op.path)) url = url.replace(`{${name}}`, ids[name]!);
      const answer = await call(op.method, url, writeBodies(ids)[op.operationId]);
      examples[op.operationId] = firstOfEachList(answer);
      // The quote's line takes the plain (일반) product just made: no payment terms needed.
      if (op.operationId === 'createProduct')
        ids.productId = ((answer.data as Json).product as Json).id as string;
      if (op.operationId === 'createField')
        ids.fieldId = ((answer.data as Json).field as Json).id as string;
      if (op.operationId === 'createTodo')
        ids.todoId = ((answer.data as Json).todo as Json).id as string;
    }
    const spareDeal = await call('POST', '/v2/deal', {
      ...(writeBodies(ids).createDeal as Json),
      name: '삭제할 딜',
    });
    const spareLead = await call('POST', '/v2/lead', {
      name: '삭제할 리드',
      peopleId: ids.peopleId,
    });
    examples.deleteDeal = await call(
      'POST',
      `/v2/deal/${((spareDeal.data as Json).deal as Json).id}/delete`,
    );
    const spareTodo = await call('POST', '/v2/todo', {
      leadId: ids.leadId,
      fieldList: [{ name: '내용', stringValue: '삭제할 할 일' }],
    });
    examples.deleteTodo = await call(
      'POST',
      `/v2/todo/${((spareTodo.data as Json).todo as Json).id}/delete`,
    );
    const spareProduct = await call('POST', '/v2/product', { name: '삭제할 상품', price: 1 });
    examples.deleteProduct = await call(
      'POST',
      `/v2/product/${((spareProduct.data as Json).product as Json).id}/delete`,
    );
    const spareCustomObject = await call('POST', '/v2/custom-object', {
      ...(writeBodies(ids).createCustomObject as Json),
      fieldList: [{ name: '이름', stringValue: '삭제할 계약서' }],
    });
    examples.deleteCustomObject = await call(
      'POST',
      `/v2/custom-object/${((spareCustomObject.data as Json).customObject as Json).id}/delete`,
    );
    const spareFile = (await upload('삭제할 파일.pdf')).data as Json;
    examples.deleteFile = await call('POST', `/v2/file/${spareFile.id}/delete`);
    const spareRecording = ((await recording('삭제할 통화')).data as Json).recording as Json;
    examples.deleteRecording = await call('POST', `/v2/recording/${spareRecording.id}/delete`);
    const enrolled = (examples.enrollInSequence as Json).data as Json;
    examples.deleteSequenceEnrollment = await call(
      'POST',
      `/v2/sequence/enrollment/${(enrolled.sequenceEnrollment as Json)._id}/delete`,
    );
    examples.deleteLead = await call(
      'POST',
      `/v2/lead/${((spareLead.data as Json).lead as Json).id}/delete`,
    );
    const spareId = async (path: string, key: string, body: Json) =>
      (((await call('POST', path, body)).data as Json)[key] as Json).id as string;
    const merges = [
      ['mergePeople', 'people', ids.peopleId, { name: '병합할 고객' }],
      ['mergeOrganization', 'organization', ids.organizationId, { name: '병합할 주식회사' }],
      [
        'mergeDeal',
        'deal',
        ids.dealId,
        { ...(writeBodies(ids).createDeal as Json), name: '병합할 딜' },
      ],
      ['mergeLead', 'lead', ids.leadId, { name: '병합할 리드', peopleId: ids.peopleId }],
    ] as const;
    for (const [operationId, type, keptId, body] of merges) {
      const mergedId = await spareId(`/v2/${type}`, type, body);
      examples[operationId] = await call('POST', `/v2/${type}/${keptId}/merge`, { mergedId });
    }
    examples.listCustomAssociations = firstOfEachList(
      await call('GET', `/v2/object/people/${await referrer(call)}/association/deal/custom`),
    );
    // The feed once the writes above have made events (a new demo workspace has none).
    examples.listEvents = firstOfEachList(await call('GET', '/v2/event?limit=2'));
    examples.deleteWebhook = await call('POST', `/v2/webhook/${ids.webhookId}/delete`);
    await app.close();
    return JSON.parse(JSON.stringify(examples).replaceAll(origin, EXAMPLE_RECEIVER));
  } finally {
    receiver.close();
    await smtp.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A person a deal of the demo names as its 추천인. */
async function referrer(call: (method: 'GET', url: string) => Promise<Json>): Promise<string> {
  const deals = ((await call('GET', '/v2/deal?limit=100')).data as Json).dealList as Json[];
  const found = deals.map((d) => (d['추천인'] as Json | null)?.id).find((id) => id);
  if (!found) throw new Error('no deal of the demo has a 추천인');
  return found as string;
}

/** An enrollment of the demo whose timeline has events (most have; some have not run a step). */
async function enrollmentWithTimeline(
  app: Awaited<ReturnType<typeof buildApp>>,
  headers: Record<string, string>,
  call: (method: 'GET', url: string) => Promise<Json>,
): Promise<string> {
  const sequences = ((await call('GET', '/v2/sequence')).data as Json).sequenceList as Json[];
  for (const sequence of sequences) {
    const list = ((await call('GET', `/v2/sequence/${sequence._id}/enrollment`)).data as Json)
      .sequenceEnrollmentList as Json[];
    for (const enrollment of list) {
      const url = `/v2/sequence/enrollment/${enrollment._id}/timeline`;
      const res = await app.inject({ method: 'GET', url, headers });
      if (res.statusCode === 200) return enrollment._id as string;
    }
  }
  throw new Error('no enrollment of the demo has a timeline');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const examples = await recordExamples();
  const file = fileURLToPath(new URL('../src/api-schema/examples.json', import.meta.url));
  writeFileSync(file, `${JSON.stringify(examples, null, 2)}\n`);
  console.log(`wrote ${Object.keys(examples).length} examples to ${file}`);
}
