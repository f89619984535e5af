/**
 * The records a pull read, as the lines of the workspace format (`docs/import-format.md`)
 * that `import` writes: each API record taken back to the row it is rendered from, ids,
 * dates and history kept. What the API does not show is made up so that every read
 * answers as the source's does: the creation times of teams, pipelines and fields (which
 * only order them: times a millisecond apart in the source's order), the ids of web-form
 * submissions and sequence timeline events (the API shows none: ids from their record and
 * their place, in the source's order), and which deal or lead a sequence enrollment holds
 * (from the records' sequence keys). Custom objects, files, e-mails and recordings are
 * `content-lines.ts`'s. `docs/pull.md` lists what is not carried over.
 */

import {
  ATTACHMENT_TYPE,
  type CustomFieldType,
  type RefTarget,
  refTargetOf,
} from '../../domain/custom-fields.ts';
import { FIELD_TYPE_OF_PATH } from '../../domain/field-catalogue.ts';
import { SOURCE_IMPORT } from '../../resources/owned.ts';
import {
  customObjectActivityLine,
  customObjectLine,
  customObjectOfTodos,
  definitionLines,
  emailLines,
  fileLines,
  filesRead,
  recordingLines,
} from './content-lines.ts';
import { dealOutcomes, OUTCOMES } from './deal-outcomes.ts';
import { enrollmentLines } from './enrollments.ts';
import { type Line, type Rec, refId, refIds } from './refs.ts';
import type { Spool } from './spool.ts';
import { FIELD_TYPES } from './walk.ts';

/** Records the source serves that the copy does not carry (yet), by what they are. */
export type Skipped = Record<string, number>;

/** A made-up creation time: the n-th, a millisecond apart (they only order their records). */
const ORDER_BASE = Date.parse('2000-01-01T00:00:00.000Z');
const orderTime = (n: number) => new Date(ORDER_BASE + n).toISOString();

interface FieldDef {
  id: string;
  name: string;
  type: CustomFieldType;
  formula?: string;
}

/** The subject of a note or todo from its id keys; undefined for none (a custom object's). */
function subjectOf(r: Rec): [string, string] | undefined {
  for (const [key, type] of [
    ['dealId', 'deal'],
    ['leadId', 'lead'],
    ['peopleId', 'people'],
    ['organizationId', 'organization'],
    ['productId', 'product'],
    ['quoteId', 'quote'],
  ] as const) {
    if (typeof r[key] === 'string') return [type, r[key] as string];
  }
  return undefined;
}

/**
 * Builds the lines of everything in `spool`, in the format's line order, handing each to
 * `emit`; answers what the source served that the lines leave out.
 */
export function pulledLines(
  spool: Pick<Spool, 'values' | 'progress' | 'dir'>,
  emit: (line: Line) => void,
): Skipped {
  const skipped: Skipped = {};
  const skip = (what: string, n = 1) => {
    if (n > 0) skipped[what] = (skipped[what] ?? 0) + n;
  };
  const values = <T = Rec>(name: string) => [...spool.values<T>(name)];

  // Users, teams and their members.
  for (const u of values('users')) {
    emit({
      type: 'user',
      id: u.id,
      name: u.name,
      email: u.email,
      status: u.status,
      role: u.role,
      created_at: u.createdAt,
      updated_at: u.updatedAt,
    });
  }
  let order = 0;
  const teams = values('teams');
  for (const t of teams) {
    emit({
      type: 'team',
      id: t.id,
      name: t.name,
      description: t.description ?? null,
      created_at: orderTime(order++),
    });
  }
  for (const t of teams) {
    (t.teammateList as { id: string }[]).forEach((m, position) => {
      emit({ type: 'teamMember', team_id: t.id, user_id: m.id, position });
    });
  }

  // Pipelines and stages: those of deals, of leads and of custom objects.
  const kindOf = new Map<string, 'deal' | 'lead'>();
  for (const p of values('dealPipelines')) kindOf.set(p.id as string, 'deal');
  for (const p of values('leadPipelines')) kindOf.set(p.id as string, 'lead');
  /** Stage timing key prefix (`<stage>(<pipeline>)`) → stage id, per record type. */
  const stageByKey = { deal: new Map<string, string>(), lead: new Map<string, string>() };
  const stageLines: Line[] = [];
  const customPipelines: string[] = [];
  values('pipelines').forEach((p, position) => {
    // Neither a deal's nor a lead's: a custom object's.
    const kind = kindOf.get(p._id as string);
    if (!kind) customPipelines.push(p._id as string);
    emit({
      type: 'pipeline',
      id: p._id,
      kind: kind ?? 'customObject',
      name: p.name,
      position,
      created_at: orderTime(order++),
    });
    for (const s of p.pipelineStageList as Rec[]) {
      stageLines.push({
        type: 'pipelineStage',
        id: s._id,
        pipeline_id: p._id,
        name: s.name,
        position: s.index,
      });
      if (kind) stageByKey[kind].set(`${s.name}(${p.name})`, s._id as string);
    }
  });
  for (const s of stageLines) emit(s);
  for (const d of definitionLines(spool, customPipelines, () => orderTime(order++))) emit(d);

  // Custom fields: the fields of each list whose id is not their name (built-in fields'
  // ids are their names).
  const fieldsOf = new Map<string, FieldDef[]>();
  for (const t of FIELD_TYPES) {
    const recordType = FIELD_TYPE_OF_PATH[t];
    const defs: FieldDef[] = [];
    fieldsOf.set(recordType, defs);
    for (const f of values(`fields-${t}`)) {
      if (f.id === f.name) continue;
      const def = fieldDefOf(f);
      defs.push(def);
      emit(
        customFieldLine(def, f, { record_type: recordType }, defs.length - 1, orderTime(order++)),
      );
    }
  }
  // The custom objects' fields, each of its definition (`customObject:<definition id>`).
  let customObjectFields = 0;
  for (const f of values('fields-custom-object')) {
    if (f.id === f.name || typeof f.customObjectDefinitionId !== 'string') continue;
    const key = `customObject:${f.customObjectDefinitionId}`;
    const defs = fieldsOf.get(key) ?? [];
    fieldsOf.set(key, defs);
    const def = fieldDefOf(f);
    defs.push(def);
    const of = {
      record_type: 'customObject',
      custom_object_definition_id: f.customObjectDefinitionId,
    };
    emit(customFieldLine(def, f, of, customObjectFields++, orderTime(order++)));
  }

  // What a custom value may name: the files whose bytes the walk has, and the records it
  // read. An id of another (a record deleted on the source keeps its id in the Refs that
  // named it, with an empty name) is left out of the value, not the record out of the copy.
  const files = filesRead(spool);
  const fileIds = new Set(files.filter((f) => f.size > 0).map((f) => f.id));
  const customObjects = values('customObjects');
  const customObjectIds = new Set(customObjects.map((o) => o.id as string));
  const idsOf = (name: string, key = 'id') => new Set(values(name).map((r) => String(r[key])));
  const known: Record<RefTarget, Set<string>> = {
    user: idsOf('users'),
    people: idsOf('people'),
    organization: idsOf('organizations'),
    deal: idsOf('deals'),
    pipeline: idsOf('pipelines', '_id'),
    pipelineStage: new Set(
      values('pipelines').flatMap((p) => (p.pipelineStageList as Rec[]).map((s) => String(s._id))),
    ),
    webForm: idsOf('webForms'),
    sequence: idsOf('sequences', '_id'),
    customObject: customObjectIds,
  };

  /** A record's custom values in stored form: by field id, Refs and files as ids. */
  const custom = (recordType: string, r: Rec): Rec => {
    const out: Rec = {};
    for (const def of fieldsOf.get(recordType) ?? []) {
      const v = r[def.name];
      if (def.formula !== undefined || v === null || v === undefined) continue;
      if (def.type === ATTACHMENT_TYPE) {
        const ids = refIds(v).filter((id) => fileIds.has(id));
        if (ids.length > 0) out[def.id] = ids;
        continue;
      }
      const ref = refTargetOf(def.type);
      if (!ref) {
        out[def.id] = v;
        continue;
      }
      const named = ref.multi ? refIds(v) : [refId(v)];
      const ids = named.filter((id): id is string => id !== null && known[ref.target].has(id));
      skip('customValueNamingAnUnreadRecord', named.length - ids.length);
      if (ids.length > 0) out[def.id] = ref.multi ? ids : ids[0];
    }
    return out;
  };
  const owned = (recordType: string, r: Rec): Rec => ({
    owner_id: refId(r.담당자),
    team_ids: refIds(r.팀),
    custom: custom(recordType, r),
    created_at: r['생성 날짜'],
    updated_at: r['수정 날짜'],
  });

  const productKind = new Map<string, string>();
  for (const r of values('products')) {
    productKind.set(r.id as string, r.유형 as string);
    emit({
      type: 'product',
      id: r.id,
      name: r.이름,
      code: r.코드,
      kind: r.유형,
      price: r.금액,
      unit: r.단위,
      ...owned('product', r),
    });
  }
  for (const r of values('organizations')) {
    emit({
      type: 'organization',
      id: r.id,
      name: r.이름,
      email: r.이메일,
      phone: r.전화,
      profile_image: r['프로필 사진'],
      linkedin: r.링크드인,
      // An organization does not show its source: a pulled one is an imported one.
      source: SOURCE_IMPORT,
      ...owned('organization', r),
    });
  }
  const people = values('people');
  for (const r of people) {
    emit({
      type: 'person',
      id: r.id,
      organization_id: r.organizationId,
      name: r.이름,
      email: r.이메일,
      phone: r.전화,
      job_title: r.포지션,
      profile_image: r['프로필 사진'],
      linkedin: r.링크드인,
      unsubscribed: r['수신 거부 여부'] === true,
      unsubscribe_reason: r['수신 거부 사유'],
      // Nor does a person.
      source: SOURCE_IMPORT,
      ...owned('people', r),
    });
  }

  // Deals and leads, their stage times from the stage timing keys.
  const deals = values('deals');
  const leads = values('leads');
  const dealIds = new Set(deals.map((d) => d.id as string));
  const leadIds = new Set(leads.map((d) => d.id as string));
  const dealActivities = values('dealActivities');
  /** A deal's outcome as its newest activity that says one had it. */
  const lastStatus = new Map<string, [string, string]>();
  for (const a of dealActivities) {
    if (typeof a.dealStatus !== 'string') continue;
    const seen = lastStatus.get(a.dealId as string);
    if (!seen || seen[0] <= (a.date as string))
      lastStatus.set(a.dealId as string, [a.date as string, a.dealStatus]);
  }
  const details = new Map<string, Rec>();
  for (const [id, d] of values<[string, Rec]>('dealDetails')) details.set(id, d);
  const pipelineRecord = (kind: 'deal' | 'lead', r: Rec): Rec => {
    const times: Record<string, [string, string | null, number]> = {};
    for (const [prefix, stageId] of stageByKey[kind]) {
      const entered = r[`${prefix}로 진입한 날짜`];
      if (typeof entered !== 'string') continue;
      times[stageId] = [
        entered,
        (r[`${prefix}에서 퇴장한 날짜`] as string | null) ?? null,
        Number(r[`${prefix}에서 보낸 누적 시간`] ?? 0),
      ];
    }
    const stageId = refId(r['파이프라인 단계']);
    return {
      id: r.id,
      people_id: r.peopleId,
      organization_id: r.organizationId,
      name: r.이름,
      pipeline_id: refId(r.파이프라인),
      stage_id: stageId,
      stage_entered_at: stageId !== null ? (times[stageId]?.[0] ?? null) : null,
      stage_times: Object.keys(times).length > 0 ? times : null,
      amount: r.금액,
      closed_at: r.마감일,
      expected_close_at: r['수주 예정일'],
      source: r.소스,
      ...owned(kind, r),
    };
  };
  const outcomes = dealOutcomes(deals, people, values('organizations'), lastStatus);
  for (const r of deals) {
    const status = r.상태 as string;
    const outcome = outcomes.get(r.id as string)!;
    const detail = details.get(r.id as string);
    emit({
      type: 'deal',
      ...pipelineRecord('deal', r),
      label: OUTCOMES.includes(status) ? null : status,
      outcome,
      follower_ids: refIds(detail?.팔로워),
      participant_ids: refIds(detail?.참여자),
    });
  }
  for (const r of leads) {
    emit({
      type: 'lead',
      ...pipelineRecord('lead', r),
      label: r.상태 === 'New' ? null : r.상태,
    });
  }

  // Quotes and their lines.
  const quoteLines: Line[] = [];
  const seenQuotes = new Set<string>();
  for (const [name, key] of [
    ['dealQuotes', 'deal_id'],
    ['leadQuotes', 'lead_id'],
  ] as const) {
    for (const [of, q] of values<[string, Rec]>(name)) {
      if (seenQuotes.has(q.id as string)) continue;
      seenQuotes.add(q.id as string);
      emit({
        type: 'quote',
        id: q.id,
        deal_id: key === 'deal_id' ? of : null,
        lead_id: key === 'lead_id' ? of : null,
        name: q.이름,
        is_main: q['메인 견적서 여부'] === true,
        share_link: q['공유 링크'],
        ...owned('quote', q),
      });
      (q['견적 구성 상품'] as Rec[]).forEach((l, position) => {
        const plain = productKind.get(l.productId as string) === '일반';
        quoteLines.push({
          type: 'quoteLine',
          id: l.id,
          quote_id: q.id,
          position,
          product_id: l.productId,
          price: l.금액,
          quantity: l.수량,
          payment_count: plain ? null : l['결제 횟수'],
          payment_start_at: plain ? null : l['시작 결제일'],
          custom: custom('quoteProduct', l),
        });
      });
    }
  }
  for (const l of quoteLines) emit(l);

  // Custom objects.
  for (const o of customObjects) {
    emit(customObjectLine(o, custom(`customObject:${o.customObjectDefinitionId}`, o)));
  }

  // Notes and todos. Those of custom objects name no record in their lists: a custom object's
  // notes are its own read's, its todos placed as `customObjectOfTodos` says.
  const customObjectNotes = values<[string, Rec]>('customObjectNotes');
  const notesPlaced = new Set(customObjectNotes.map(([, m]) => m.id as string));
  const note = (m: Rec, subject: [string, string]) =>
    emit({
      type: 'note',
      id: m.id,
      subject_type: subject[0],
      subject_id: subject[1],
      text: m.text,
      type_id: (m.typeList as { _id: string }[])[0]?._id ?? null,
      html_body: m.htmlBody,
      parent_id: m.parentId,
      todo_id: m.todoId,
      author_id: m.ownerId,
      created_at: m.createdAt,
      updated_at: m.updatedAt,
    });
  for (const m of values('memos')) {
    const subject = subjectOf(m);
    if (subject) note(m, subject);
    else if (!notesPlaced.has(m.id as string)) skip('customObjectNote');
  }
  for (const [of, m] of customObjectNotes) {
    if (customObjectIds.has(of)) note(m, ['customObject', of]);
  }
  const todos = values('todos');
  const todoPlace = customObjectOfTodos(
    spool,
    todos.filter((t) => !subjectOf(t)),
  );
  for (const t of todos) {
    const of = todoPlace.get(t.id as string);
    const subject =
      subjectOf(t) ?? (of !== undefined ? (['customObject', of] as const) : undefined);
    if (!subject) {
      skip('customObjectTodo');
      continue;
    }
    emit({
      type: 'todo',
      id: t.id,
      subject_type: subject[0],
      subject_id: subject[1],
      title: t.내용,
      kind: t.유형,
      start_at: t['시작 날짜'],
      due_at: t['마지막 날짜'],
      done: t.완료 === true,
      done_at: t['완료 날짜'],
      owner_id: refId(t.담당자),
      created_at: t['생성 날짜'],
      updated_at: t['수정 날짜'],
      custom: custom('todo', t),
    });
  }

  // Web forms and their submissions (ids made from the form's and the place's).
  for (const f of values('webForms')) {
    emit({
      type: 'webForm',
      id: f.id,
      name: f.name,
      description: f.description,
      status: f.status,
      view_count: f.viewCount,
      created_at: f.createdAt,
      updated_at: f.updatedAt,
    });
  }
  const submissionsOf = new Map<string, number>();
  for (const [formId, s] of values<[string, Rec]>('submissions')) {
    const n = submissionsOf.get(formId) ?? 0;
    submissionsOf.set(formId, n + 1);
    emit({
      type: 'submission',
      id: `${formId}_s${String(n).padStart(7, '0')}`,
      web_form_id: formId,
      people_id: s.peopleId,
      organization_id: s.organizationId,
      deal_id: s.dealId,
      lead_id: s.leadId,
      contents: s.contents,
      created_at: s.createdAt,
    });
  }

  // Sequences, their enrollments, steps and timelines.
  for (const s of values('sequences')) {
    emit({
      type: 'sequence',
      id: s._id,
      name: s.name,
      created_at: s.createdAt,
      description: s.description ?? null,
    });
  }
  const enrollments = enrollmentLines(values<[string, Rec]>('enrollments'), people, deals, leads);
  skip('enrollmentOfUnknownRecord', enrollments.unplaced);
  for (const e of enrollments.lines) emit(e);
  for (const [sequenceId, s] of values<[string, Rec]>('sequenceSteps')) {
    emit({
      type: 'sequenceStep',
      id: s.id,
      sequence_id: sequenceId,
      position: s.index,
      kind: s.type,
      execute_immediately: s.executeImmediately === true,
      business_day: s.businessDay,
      execution_time: s.executionTime,
    });
  }
  const eventsOf = new Map<string, number>();
  const placed = new Set(enrollments.lines.map((e) => e.id as string));
  for (const [enrollmentId, t] of values<[string, Rec]>('timelines')) {
    if (!placed.has(enrollmentId)) continue;
    const n = eventsOf.get(enrollmentId) ?? 0;
    eventsOf.set(enrollmentId, n + 1);
    emit({
      type: 'sequenceEvent',
      id: `${enrollmentId}_t${String(n).padStart(6, '0')}`,
      enrollment_id: enrollmentId,
      event_type: t.eventType,
      step_index: t.stepIndex,
      date: t.date,
      email_id: t.emailId,
      link_url: t.linkUrl,
      link_name: t.linkName,
    });
  }

  // Activities: the deal list holds the leads' too (the lead's id under dealId).
  const seenActivities = new Set<string>();
  const activity = (subjectType: string, subjectId: string, a: Rec, status: unknown) => {
    if (seenActivities.has(a.id as string)) return;
    seenActivities.add(a.id as string);
    emit({
      type: 'activity',
      id: a.id,
      subject_type: subjectType,
      subject_id: subjectId,
      kind: a.type,
      date: a.date,
      deal_status: status ?? null,
      web_form_id: a.webFormId,
      sms_id: a.smsId,
      todo_id: a.todoId,
      memo_id: a.memoId,
      email_message_id: a.emailMessageId,
    });
  };
  for (const a of dealActivities) {
    const id = a.dealId as string;
    if (leadIds.has(id)) activity('lead', id, a, null);
    else if (dealIds.has(id)) activity('deal', id, a, a.dealStatus);
    else skip('activityOfUnknownRecord');
  }
  for (const a of values('peopleActivities')) activity('people', a.peopleId as string, a, null);
  for (const a of values('organizationActivities'))
    activity('organization', a.organizationId as string, a, null);
  const recordings = recordingLines(spool, files, skip);
  const recordingIds = new Set(recordings.map((r) => r.id as string));
  for (const a of values('customObjectActivities')) {
    if (seenActivities.has(a.id as string)) continue;
    seenActivities.add(a.id as string);
    emit(customObjectActivityLine(a, recordingIds));
  }
  // The other activity lists do not name a recording: theirs are not carried.
  skip(
    'recordingNotNamedByItsActivity',
    [...dealActivities, ...values('peopleActivities'), ...values('organizationActivities')].filter(
      (a) => a.type === 'recordingCreate',
    ).length,
  );

  // History.
  for (const h of values('peopleHistory')) {
    emit(historyLine('people', h.peopleId, h, h.peopleId, refId(h.organization)));
  }
  for (const h of values('organizationHistory')) {
    emit(historyLine('organization', h.organizationId, h, null, null));
  }
  for (const h of values('dealHistory')) {
    emit(historyLine('deal', h.dealId, h, refId(h.people), refId(h.organization)));
  }
  for (const h of values('leadHistory')) {
    emit(historyLine('lead', h.leadId, h, refId(h.people), refId(h.organization)));
  }
  for (const h of values('customObjectHistory')) {
    emit(historyLine('customObject', h.customObjectId, h, null, null));
  }

  // Files and their bytes, sent e-mails, recordings.
  fileLines(spool, files, emit, () => orderTime(order++), skip);
  emailLines(spool, emit);
  for (const r of recordings) emit(r);
  return skipped;
}

function historyLine(
  subjectType: string,
  subjectId: unknown,
  h: Rec,
  peopleId: unknown,
  organizationId: unknown,
): Line {
  return {
    type: 'history',
    id: h.id,
    subject_type: subjectType,
    subject_id: subjectId,
    kind: h.type,
    people_id: peopleId ?? null,
    organization_id: organizationId ?? null,
    field_name: h.fieldName,
    field_value: h.fieldValue,
    owner_id: h.ownerId,
    created_at: h.createdAt,
  };
}

/** A field definition as the source's field list shows it. */
function fieldDefOf(f: Rec): FieldDef {
  return {
    id: f.id as string,
    name: f.name as string,
    type: f.type as CustomFieldType,
    ...(typeof f.formula === 'string' ? { formula: f.formula } : {}),
  };
}

/** The `customField` line of a field, of the record type (and definition) `of` names. */
function customFieldLine(
  def: FieldDef,
  f: Rec,
  of: Record<string, unknown>,
  position: number,
  createdAt: string,
): Line {
  return {
    type: 'customField',
    id: def.id,
    ...of,
    name: def.name,
    kind: def.type,
    position,
    required: f.required === true,
    options: Array.isArray(f.optionList)
      ? (f.optionList as Rec[]).map((o) => ({ id: o.id, value: o.value }))
      : null,
    created_at: createdAt,
    formula: def.formula ?? null,
  };
}
