import type { CustomFieldRecordType } from '../../domain/custom-fields.ts';
import { renderCustomObject } from '../../render/custom-objects.ts';
import { renderDeal, singleDealExtras } from '../../render/deals.ts';
import { renderLead } from '../../render/leads.ts';
import { renderOrganization } from '../../render/organizations.ts';
import { renderPerson } from '../../render/people.ts';
import { renderProduct } from '../../render/products.ts';
import { renderQuote } from '../../render/quotes.ts';
import { renderTodo } from '../../render/todos.ts';

const T = '2000-01-01T00:00:00.000Z';
const owned = {
  owner_id: null,
  team_ids: '[]',
  custom: '{}',
  created_at: T,
  updated_at: T,
  body: null,
};
const common = {
  note: undefined,
  owner: null,
  teams: [],
  customFields: [],
  nameOf: () => undefined,
};
const counts = { leads: 0, inProgress: 0, won: 0, lost: 0 };
const pipelineRow = {
  ...owned,
  workspace_id: '',
  id: '',
  people_id: null,
  organization_id: null,
  name: '',
  pipeline_id: null,
  stage_id: null,
  stage_entered_at: null,
  stage_times: null,
  amount: null,
  label: null,
  closed_at: null,
  expected_close_at: null,
  source: '',
};
const pipelineFacts = {
  ...common,
  mainQuoteProducts: null,
  lastEmailOpenAt: null,
  submissions: [],
  enrollments: [],
  todos: [],
  // The stage timing keys are the workspace's pipelines' own, not fixed.
  stageKeys: [],
};

/**
 * The fixed keys of each record type, read off the render functions themselves (so they are
 * written in one place): a custom field may not take one of these names (docs/decisions.md, Custom
 * fields).
 */
function computeFixedKeys(): Record<CustomFieldRecordType, string[]> {
  const person = renderPerson(
    {
      ...owned,
      workspace_id: '',
      id: '',
      organization_id: null,
      name: '',
      email: null,
      phone: null,
      job_title: null,
      profile_image: null,
      linkedin: null,
      unsubscribed: 0,
      unsubscribe_reason: null,
      source: '',
    },
    { ...common, counts, submissions: [], enrollments: [], todos: [] },
  );
  const organization = renderOrganization(
    {
      ...owned,
      workspace_id: '',
      id: '',
      name: '',
      email: null,
      phone: null,
      profile_image: null,
      linkedin: null,
      source: '',
    },
    { ...common, counts, submissions: [], sequences: [], todos: [] },
  );
  const deal = renderDeal(
    { ...pipelineRow, outcome: 'In progress', follower_ids: '[]', participant_ids: '[]' },
    pipelineFacts,
  );
  const lead = renderLead(pipelineRow, pipelineFacts);
  const product = renderProduct(
    {
      ...owned,
      workspace_id: '',
      id: '',
      name: '',
      code: null,
      kind: '일반',
      price: 0,
      unit: null,
    },
    common,
  );
  const quoteRecord = renderQuote(
    {
      ...owned,
      workspace_id: '',
      id: '',
      deal_id: null,
      lead_id: null,
      name: '',
      is_main: 0,
      share_link: null,
    },
    {
      ...common,
      lineCustomFields: [],
      lines: [
        {
          workspace_id: '',
          id: '',
          quote_id: '',
          position: 0,
          product_id: '',
          price: 0,
          quantity: 0,
          payment_count: null,
          payment_start_at: null,
          custom: '{}',
          kind: '일반',
        },
      ],
    },
  );
  const line = (quoteRecord['견적 구성 상품'] as Record<string, unknown>[])[0]!;
  const todo = renderTodo(
    {
      workspace_id: '',
      id: '',
      subject_type: 'deal',
      subject_id: '',
      title: '',
      kind: '',
      start_at: null,
      due_at: null,
      done: 0,
      done_at: null,
      owner_id: null,
      created_at: T,
      updated_at: T,
      custom: '{}',
    },
    common,
  );
  const customObject = renderCustomObject(
    {
      ...owned,
      workspace_id: '',
      id: '',
      definition_id: '',
      record_number: 1,
      name: '',
      pipeline_id: null,
      stage_id: null,
    },
    { ...common, todos: [] },
  );
  return {
    people: Object.keys(person),
    organization: Object.keys(organization),
    deal: [...Object.keys(deal), ...Object.keys(singleDealExtras(pipelineRow, [], [], T))],
    lead: Object.keys(lead),
    product: Object.keys(product),
    quote: Object.keys(quoteRecord),
    quoteProduct: Object.keys(line),
    todo: Object.keys(todo),
    customObject: Object.keys(customObject),
  };
}

let cached: Record<CustomFieldRecordType, string[]> | undefined;

/** The fixed keys of a record type, in order. */
export function fixedKeysOf(recordType: CustomFieldRecordType): string[] {
  cached ??= computeFixedKeys();
  return cached[recordType];
}
