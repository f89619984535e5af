import type { TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { ErrorA, ErrorB, ListEnvelope } from '../src/api-schema/envelopes.ts';
import { registerFormats } from '../src/api-schema/formats.ts';
import { CustomFieldValue } from '../src/api-schema/primitives.ts';
import {
  DealActivityRecord,
  LeadActivityRecord,
  OrganizationActivityRecord,
  PeopleActivityRecord,
} from '../src/api-schema/records/activities.ts';
import { keysOf } from '../src/api-schema/records/common.ts';
import {
  CustomObjectActivityRecord,
  CustomObjectHistoryRecord,
  CustomObjectRecord,
} from '../src/api-schema/records/custom-objects.ts';
import {
  DealRecord,
  LeadRecord,
  PipelineRecord,
  SingleDealRecord,
} from '../src/api-schema/records/deals-leads.ts';
import { FieldRecord } from '../src/api-schema/records/fields.ts';
import {
  DealHistoryRecord,
  LeadHistoryRecord,
  OrganizationHistoryRecord,
  PeopleHistoryRecord,
} from '../src/api-schema/records/history.ts';
import { MemoListRecord, MemoRecord, TodoRecord } from '../src/api-schema/records/notes-todos.ts';
import {
  OrganizationRecord,
  PeopleRecord,
} from '../src/api-schema/records/people-organizations.ts';
import {
  ProductRecord,
  QuoteProductRecord,
  QuoteRecord,
} from '../src/api-schema/records/products-quotes.ts';
import { MeRecord, TeamRecord, UserRecord } from '../src/api-schema/records/users-teams.ts';
import { WebFormRecord, WebFormSubmitRecord } from '../src/api-schema/records/web-forms.ts';
import { renderCustomObjectActivity, renderSubjectActivity } from '../src/render/activities.ts';
import { renderDealActivity } from '../src/render/deal-activities.ts';
import { DEAL_FIXED_KEY_COUNT } from '../src/render/deals.ts';
import { renderFieldList } from '../src/render/fields.ts';
import { renderMemo } from '../src/render/notes.ts';
import { renderPerson } from '../src/render/people.ts';
import { renderPeopleHistory } from '../src/render/people-history.ts';
import { renderPipelines } from '../src/render/pipelines.ts';
import { renderRecordHistory } from '../src/render/record-history.ts';
import { renderTeam } from '../src/render/teams.ts';
import { renderMe, renderUser } from '../src/render/users.ts';
import { renderSubmission, renderWebForm } from '../src/render/web-forms.ts';
import { fixedKeysOf } from '../src/resources/custom-fields/fixed-keys.ts';

const T = '2024-04-08T05:25:26.020Z';
registerFormats();

/** Checks a schema against a rendered record: same keys in the same order, and valid. */
function expectMatches(schema: TObject, record: Record<string, unknown>): void {
  expect(keysOf(schema)).toEqual(Object.keys(record));
  expect([...Value.Errors(schema, record)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
}

describe('record schemas with custom fields', () => {
  it.each([
    ['people', PeopleRecord],
    ['organization', OrganizationRecord],
    ['lead', LeadRecord],
    ['product', ProductRecord],
    ['quote', QuoteRecord],
    ['quoteProduct', QuoteProductRecord],
    ['todo', TodoRecord],
    ['customObject', CustomObjectRecord],
  ] as const)('%s has the renderer’s fixed keys in order', (type, schema) => {
    expect(keysOf(schema)).toEqual(fixedKeysOf(type));
  });

  it('the list deal has the first fixed keys, the single deal all of them', () => {
    expect(keysOf(DealRecord)).toEqual(fixedKeysOf('deal').slice(0, DEAL_FIXED_KEY_COUNT));
    expect(keysOf(SingleDealRecord)).toEqual(fixedKeysOf('deal'));
  });

  it('takes custom fields of every kind as extra keys, and refuses other values', () => {
    const people = renderPerson(
      {
        workspace_id: 'w',
        id: 'p1',
        organization_id: null,
        name: '김고객',
        email: null,
        phone: null,
        job_title: null,
        profile_image: null,
        linkedin: null,
        unsubscribed: 0,
        unsubscribe_reason: null,
        source: '직접 생성',
        owner_id: null,
        team_ids: '[]',
        custom: '{}',
        created_at: T,
        updated_at: T,
        body: null,
      },
      {
        counts: { leads: 0, inProgress: 1, won: 0, lost: 0 },
        note: { text: '메모', createdAt: T, author: { id: 'u1', name: '김영업' } },
        submissions: [],
        enrollments: [],
        todos: [],
        owner: null,
        teams: [],
        customFields: [],
        nameOf: () => undefined,
      },
    );
    expect(Value.Check(PeopleRecord, people)).toBe(true);
    for (const value of ['골드', 3, true, ['a'], { id: 'u1', name: '김' }, [], null]) {
      expect(Value.Check(PeopleRecord, { ...people, '고객 등급': value })).toBe(true);
    }
    expect(Value.Check(CustomFieldValue, { id: 'u1' })).toBe(false);
    expect(Value.Check(PeopleRecord, { ...people, '고객 등급': { nested: 1 } })).toBe(false);
    expect(Value.Check(PeopleRecord, { ...people, 이름: null })).toBe(false);
    expect(Value.Check(PeopleRecord, { ...people, '생성 날짜': '2024-04-08' })).toBe(false);
  });
});

describe('record schemas without custom fields', () => {
  const links = { web_form_id: null, sms_id: 's1', todo_id: null, memo_id: null };
  const activity = {
    workspace_id: 'w',
    id: 'a1',
    subject_type: 'deal',
    subject_id: 'd1',
    type: 'smsSend',
    date: T,
    deal_status: 'Won',
    ...links,
    email_message_id: null,
    body: null,
    lead_body: null,
  };
  const history = {
    workspace_id: 'w',
    id: 'h1',
    subject_type: 'deal',
    subject_id: 'd1',
    type: 'editField',
    people_id: null,
    organization_id: null,
    field_name: '이름',
    field_value: '새 이름',
    owner_id: 'u1',
    created_at: T,
    body: null,
  };
  const ref = { id: 'r1', name: '이름' };
  const user = {
    id: 'u1',
    name: '김영업',
    status: 'active',
    email: 'a@b.c',
    role: 'member',
    created_at: T,
    updated_at: T,
  };

  it('activities match their renderers', () => {
    expectMatches(DealActivityRecord, renderDealActivity(activity));
    expectMatches(PeopleActivityRecord, {
      ...renderSubjectActivity({ ...activity, subject_type: 'people' }),
    });
    expectMatches(
      OrganizationActivityRecord,
      renderSubjectActivity({ ...activity, subject_type: 'organization' }),
    );
    expectMatches(LeadActivityRecord, renderSubjectActivity({ ...activity, subject_type: 'lead' }));
    expectMatches(CustomObjectActivityRecord, renderCustomObjectActivity(activity));
    expect(Value.Check(DealActivityRecord, { ...renderDealActivity(activity), type: 'x' })).toBe(
      false,
    );
  });

  it('histories match their renderers', () => {
    expectMatches(
      PeopleHistoryRecord,
      renderPeopleHistory(
        { ...history, subject_type: 'people', type: 'editOrganizationConnect' },
        ref,
      ),
    );
    expectMatches(
      DealHistoryRecord,
      renderRecordHistory('deal', history, { people: ref, organization: null }),
    );
    expectMatches(
      LeadHistoryRecord,
      renderRecordHistory('lead', history, { people: null, organization: ref }),
    );
    expectMatches(
      OrganizationHistoryRecord,
      renderRecordHistory('organization', history, { people: null, organization: null }),
    );
    expectMatches(
      CustomObjectHistoryRecord,
      renderRecordHistory('customObject', history, { people: null, organization: null }),
    );
  });

  it('workspace-level records match their renderers', () => {
    const [pipeline] = renderPipelines(
      [{ id: 'p1', name: '영업' }],
      [{ pipeline_id: 'p1', id: 's1', name: '첫 단계' }],
    );
    expectMatches(PipelineRecord, pipeline as unknown as Record<string, unknown>);
    expectMatches(
      PipelineRecord.properties.pipelineStageList.items,
      pipeline!.pipelineStageList[0]!,
    );
    expectMatches(UserRecord, renderUser(user));
    expectMatches(MeRecord, renderMe(user, { id: 'w', name: '데모' }));
    expectMatches(
      TeamRecord,
      renderTeam({ id: 't', name: '팀', description: null, created_at: T }, [ref]),
    );
    expectMatches(
      MemoRecord,
      renderMemo({
        id: 'n1',
        subject_type: 'lead',
        subject_id: 'l1',
        text: '메모',
        type_id: 'memo-type-call',
        html_body: null,
        parent_id: null,
        todo_id: null,
        author_id: 'u1',
        created_at: T,
        updated_at: T,
      }),
    );
    expectMatches(
      MemoListRecord,
      renderMemo(
        {
          id: 'n2',
          subject_type: 'quote',
          subject_id: 'q1',
          text: '답글',
          type_id: null,
          html_body: '<p>답글</p>',
          parent_id: 'n1',
          todo_id: null,
          author_id: 'u1',
          created_at: T,
          updated_at: T,
        },
        'c1',
      ),
    );
    expectMatches(
      WebFormRecord,
      renderWebForm(
        {
          id: 'f1',
          name: '문의',
          description: null,
          status: 'active',
          view_count: 3,
          created_at: T,
          updated_at: T,
        },
        2,
      ),
    );
    expectMatches(
      WebFormSubmitRecord,
      renderSubmission({
        id: 's1',
        people_id: 'p1',
        organization_id: null,
        deal_id: null,
        lead_id: null,
        contents: '[{"label":"이름","value":"김"}]',
        created_at: T,
      }),
    );
  });

  it('fields match their renderer, with and without options', () => {
    const [plain, select] = renderFieldList(
      [
        { name: '이름', type: 'string', required: true },
        { name: '유형', type: 'singleSelect', required: false, options: ['일반'] },
      ] as never,
      [],
    );
    // `formula` (after `type`) is only on formula fields.
    expect(Object.keys(plain!)).toEqual(
      keysOf(FieldRecord)
        .filter((k) => k !== 'formula')
        .slice(0, 4),
    );
    expect(keysOf(FieldRecord).slice(0, 4)).toEqual(['id', 'name', 'type', 'formula']);
    expect(Value.Check(FieldRecord, plain)).toBe(true);
    const { id, name, type, ...rest } = select as unknown as Record<string, unknown>;
    expectMatches(FieldRecord, {
      id,
      name,
      type,
      formula: '{{고객.이름}}',
      ...rest,
      customObjectDefinitionId: 'd1',
    });
    expect(Value.Check(FieldRecord, select)).toBe(true);
  });
});

describe('envelopes and errors', () => {
  it('a deal list carries nextCurosr then nextCursor', () => {
    const envelope = ListEnvelope('dealList', DealRecord, ['nextCurosr', 'nextCursor']);
    expect(Object.keys(envelope.properties.data.properties)).toEqual([
      'dealList',
      'nextCurosr',
      'nextCursor',
    ]);
    expect(
      Value.Check(envelope, {
        success: true,
        data: { dealList: [], nextCurosr: null, nextCursor: null },
      }),
    ).toBe(true);
    expect(Value.Check(envelope, { success: true, data: { dealList: [], nextCursor: null } })).toBe(
      false,
    );
  });

  it('tells the two error shapes apart', () => {
    expect(Value.Check(ErrorA, { success: false, message: '없음', reason: '없음' })).toBe(true);
    // `reason` is on every shape A error.
    expect(Value.Check(ErrorA, { success: false, message: '없음' })).toBe(false);
    expect(Value.Check(ErrorA, { error: '없음' })).toBe(false);
    expect(Value.Check(ErrorB, { error: '없음' })).toBe(true);
    expect(Value.Check(ErrorB, { success: false, message: '없음' })).toBe(false);
  });
});
