/**
 * Small factories over the write functions, for fixtures that read tersely:
 * `const person = await makePerson(w, { organizationId: org })`. Every input has a default
 * (names are numbered, the owner is the workspace's first admin); each factory returns the
 * new record's id unless it says otherwise. Call them inside `ws.write(async (w) => ...)`.
 */
import type { CustomFieldRecordType, CustomFieldType } from '../src/domain/custom-fields.ts';
import { newId } from '../src/domain/ids.ts';
import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { insertActivities, type NewActivity } from '../src/resources/deal-activities/writes.ts';
import { insertDeals, type NewDeal } from '../src/resources/deals/writes.ts';
import { insertLeads, type NewLead } from '../src/resources/leads/writes.ts';
import { insertNotes, type NewNote } from '../src/resources/notes/writes.ts';
import {
  insertOrganizations,
  type NewOrganization,
} from '../src/resources/organizations/writes.ts';
import { insertPeople, type NewPerson } from '../src/resources/people/writes.ts';
import { type PeopleChange, recordPeopleHistory } from '../src/resources/people-history/writes.ts';
import { insertPipeline } from '../src/resources/pipelines/writes.ts';
import { insertProducts, type NewProduct } from '../src/resources/products/writes.ts';
import { insertQuotes, type NewQuote, type NewQuoteLine } from '../src/resources/quotes/writes.ts';
import {
  insertEnrollments,
  insertSequences,
  type NewEnrollment,
} from '../src/resources/sequences/writes.ts';
import { insertTodos, type NewTodo } from '../src/resources/todos/writes.ts';
import {
  insertSubmissions,
  insertWebForms,
  type NewSubmission,
} from '../src/resources/web-forms/writes.ts';
import { insertTeams, insertUsers } from '../src/resources/workspaces/writes.ts';
import type { WorkspaceWrite } from '../src/store/write.ts';

/** `T` with only the keys `K` required. */
type With<T, K extends keyof T = never> = Partial<T> & Pick<T, K>;

let counter = 0;
/** A name unique within the test run: `고객 7`. */
const numbered = (prefix: string) => `${prefix} ${++counter}`;

const owners = new WeakMap<WorkspaceWrite, string | null>();

/** The workspace's first admin: the default `담당자`, as a token's user would be. */
async function defaultOwner(w: WorkspaceWrite): Promise<string | null> {
  if (!owners.has(w)) {
    const row = await w.trx
      .selectFrom('users')
      .select('id')
      .where('workspace_id', '=', w.workspaceId)
      .orderBy('role')
      .orderBy('created_at')
      .orderBy('id')
      .executeTakeFirst();
    owners.set(w, row?.id ?? null);
  }
  return owners.get(w)!;
}

async function owned<T extends { ownerId?: string | null }>(
  w: WorkspaceWrite,
  input: T,
): Promise<T> {
  return { ...input, ownerId: input.ownerId === undefined ? await defaultOwner(w) : input.ownerId };
}

/** A pipeline with its stages; `stage['미팅']` is a stage's id. */
export interface TestPipeline {
  id: string;
  name: string;
  stageIds: string[];
  stage: Record<string, string>;
}

/** A deal pipeline (stages 미팅, 제안, 계약 unless given). */
export async function makePipeline(
  w: WorkspaceWrite,
  input: { kind?: 'deal' | 'lead'; name?: string; stages?: string[] } = {},
): Promise<TestPipeline> {
  const name = input.name ?? numbered('파이프라인');
  const stages = input.stages ?? ['미팅', '제안', '계약'];
  const { id, stageIds } = await insertPipeline(w, {
    kind: input.kind ?? 'deal',
    name,
    stages: stages.map((s) => ({ name: s })),
  });
  return { id, name, stageIds, stage: Object.fromEntries(stages.map((s, i) => [s, stageIds[i]!])) };
}

/** A user (not in any team unless `teamIds`-style membership is added with `makeTeam`). */
export async function makeUser(w: WorkspaceWrite, name = numbered('사용자')): Promise<string> {
  const [id] = await insertUsers(w.trx, w.workspaceId, [
    { name, email: `user${++counter}@example.com` },
  ]);
  return id!;
}

/** A team of the given users. */
export async function makeTeam(
  w: WorkspaceWrite,
  name: string,
  memberIds: string[],
): Promise<string> {
  const [id] = await insertTeams(w.trx, w.workspaceId, [{ name, memberIds }]);
  return id!;
}

/** An organization. */
export async function makeOrganization(
  w: WorkspaceWrite,
  input: With<NewOrganization> = {},
): Promise<string> {
  const [id] = await insertOrganizations(w, [
    await owned(w, { name: numbered('(주)회사'), ...input }),
  ]);
  return id!;
}

/** A person. */
export async function makePerson(w: WorkspaceWrite, input: With<NewPerson> = {}): Promise<string> {
  const [id] = await insertPeople(w, [await owned(w, { name: numbered('고객'), ...input })]);
  return id!;
}

/** A deal (In progress, no pipeline, unless given). */
export async function makeDeal(w: WorkspaceWrite, input: With<NewDeal> = {}): Promise<string> {
  const [id] = await insertDeals(w, [await owned(w, { name: numbered('딜'), ...input })]);
  return id!;
}

/** A lead. */
export async function makeLead(w: WorkspaceWrite, input: With<NewLead> = {}): Promise<string> {
  const [id] = await insertLeads(w, [await owned(w, { name: numbered('리드'), ...input })]);
  return id!;
}

/** A product (`일반`, price 10,000 unless given). */
export async function makeProduct(
  w: WorkspaceWrite,
  input: With<NewProduct> = {},
): Promise<string> {
  const [id] = await insertProducts(w, [
    await owned(w, { name: numbered('상품'), price: 10_000, ...input }),
  ]);
  return id!;
}

/** A quote line: the product's own price and quantity 1 unless given. */
export type TestQuoteLine = With<NewQuoteLine, 'productId'>;

/** A quote of a deal or lead with its lines. */
export async function makeQuote(
  w: WorkspaceWrite,
  input: Omit<With<NewQuote>, 'lines'> & { lines?: TestQuoteLine[] },
): Promise<string> {
  const lines: NewQuoteLine[] = [];
  for (const line of input.lines ?? []) {
    let price = line.price;
    if (price === undefined) {
      const product = await w.trx
        .selectFrom('products')
        .select('price')
        .where('workspace_id', '=', w.workspaceId)
        .where('id', '=', line.productId)
        .executeTakeFirstOrThrow();
      price = product.price;
    }
    lines.push({ quantity: 1, ...line, price });
  }
  const [id] = await insertQuotes(w, [
    await owned(w, { name: numbered('견적서'), ...input, lines }),
  ]);
  return id!;
}

/** A note on a record, by the workspace's admin unless given. */
export async function makeNote(
  w: WorkspaceWrite,
  input: With<NewNote, 'subjectType' | 'subjectId'>,
): Promise<string> {
  const authorId = input.authorId === undefined ? await defaultOwner(w) : input.authorId;
  const [id] = await insertNotes(w, [{ text: numbered('노트'), ...input, authorId }]);
  return id!;
}

/** A todo on a record (open, no due time, unless given). */
export async function makeTodo(
  w: WorkspaceWrite,
  input: With<NewTodo, 'subjectType' | 'subjectId'>,
): Promise<string> {
  const ownerId = input.ownerId === undefined ? await defaultOwner(w) : input.ownerId;
  const [id] = await insertTodos(w, [{ title: numbered('할 일'), ...input, ownerId }]);
  return id!;
}

/** A web form. */
export async function makeWebForm(w: WorkspaceWrite, name = numbered('웹폼')): Promise<string> {
  const [id] = await insertWebForms(w, [{ name }]);
  return id!;
}

/** A submission of a web form, linked to the records given. */
export async function makeSubmission(
  w: WorkspaceWrite,
  input: With<NewSubmission, 'webFormId'>,
): Promise<string> {
  const [id] = await insertSubmissions(w, [
    { contents: [{ label: '이름', value: '홍길동' }], ...input },
  ]);
  return id!;
}

/** A sequence. */
export async function makeSequence(w: WorkspaceWrite, name = numbered('시퀀스')): Promise<string> {
  const [id] = await insertSequences(w, [name]);
  return id!;
}

/** An enrollment of a record in a sequence (active unless given). */
export async function makeEnrollment(
  w: WorkspaceWrite,
  input: With<NewEnrollment, 'sequenceId' | 'subjectType' | 'subjectId'>,
): Promise<string> {
  const [id] = await insertEnrollments(w, [input]);
  return id!;
}

/** An activity of a deal or lead (`create` unless given). */
export async function makeActivity(
  w: WorkspaceWrite,
  input: With<NewActivity, 'subjectId'>,
): Promise<string> {
  const [id] = await insertActivities(w, [{ subjectType: 'deal', type: 'create', ...input }]);
  return id!;
}

/** A people history row (an `editField` of `이름` unless given). */
export async function makeHistory(
  w: WorkspaceWrite,
  input: With<PeopleChange, 'peopleId'>,
): Promise<void> {
  const ownerId = input.ownerId === undefined ? await defaultOwner(w) : input.ownerId;
  await recordPeopleHistory(w, [
    { type: 'editField', fieldName: '이름', fieldValue: numbered('고객'), ...input, ownerId },
  ]);
}

/** A custom field of a record type (a `string` field unless given). */
export async function makeCustomField(
  w: WorkspaceWrite,
  recordType: CustomFieldRecordType,
  name: string,
  type: CustomFieldType = 'string',
): Promise<string> {
  return defineCustomField(w, { recordType, name, type });
}

/** A ready file of a few bytes, attached to a record unless `subject` is null. */
export async function makeFile(
  w: WorkspaceWrite,
  input: {
    name?: string;
    subject?: { type: string; id: string } | null;
    data?: Buffer;
    contentType?: string;
  } = {},
): Promise<string> {
  const id = newId();
  const data = input.data ?? Buffer.from(numbered('파일 내용'));
  await w.trx
    .insertInto('files')
    .values({
      workspace_id: w.workspaceId,
      id,
      name: input.name ?? `${numbered('파일')}.txt`,
      content_type: input.contentType ?? 'text/plain; charset=utf-8',
      size: data.length,
      chunk_count: 1,
      status: 'ready',
      subject_type: input.subject?.type ?? null,
      subject_id: input.subject?.id ?? null,
      memo: null,
      owner_id: await defaultOwner(w),
      created_at: w.now,
    })
    .execute();
  await w.trx
    .insertInto('file_chunks')
    .values({ workspace_id: w.workspaceId, file_id: id, seq: 0, data })
    .execute();
  return id;
}
