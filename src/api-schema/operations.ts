/**
 * The API's route table as data: every operation the server answers, with its parameters,
 * body, answer and error shape. The OpenAPI document is generated from it, and
 * `test/openapi.test.ts` checks it against the routes the Fastify app really has.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { ACTIVITY_TYPES } from '../domain/activities.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  ObjectEnvelope,
  RecordEnvelope,
  UpdatedEnvelope,
} from './envelopes.ts';
import {
  DealActivityRecord,
  LeadActivityRecord,
  OrganizationActivityRecord,
  PeopleActivityRecord,
} from './records/activities.ts';
import { DealRecord, LeadRecord, PipelineRecord, SingleDealRecord } from './records/deals-leads.ts';
import { FieldRecord } from './records/fields.ts';
import {
  DealHistoryRecord,
  LeadHistoryRecord,
  OrganizationHistoryRecord,
  PeopleHistoryRecord,
} from './records/history.ts';
import { MemoRecord, TodoRecord } from './records/notes-todos.ts';
import { OrganizationRecord, PeopleRecord } from './records/people-organizations.ts';
import { ProductRecord, QuoteRecord } from './records/products-quotes.ts';
import { MeRecord, TeamRecord, UserRecord } from './records/users-teams.ts';
import { WebFormRecord, WebFormSubmitRecord } from './records/web-forms.ts';
import {
  CreateDealBody,
  CreateLeadBody,
  CreateOrganizationBody,
  CreatePersonBody,
  CreateProductBody,
  CreateQuoteBody,
  UpdateDealBody,
  UpdateLeadBody,
  UpdateOrganizationBody,
  UpdatePersonBody,
} from './write-bodies.ts';

/** A query parameter of an operation. */
export interface QueryParameter {
  name: string;
  schema: TSchema;
  description: string;
}

/** One operation of the API. */
export interface Operation {
  method: 'GET' | 'POST';
  /** OpenAPI form, under the base path: `/v2/deal/{dealId}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  query: QueryParameter[];
  body?: TSchema;
  /** The success status and its body (`undefined`: not JSON, see `contentType`). */
  status: 200 | 201;
  response?: TSchema;
  /** Media type of a non-JSON answer (the docs page and its assets). */
  contentType?: string;
  /** Error body shape (DECISIONS 3); `none` for the unauthenticated service routes. */
  errorShape: 'A' | 'B' | 'none';
  /** Under `/v2`: bearer token, rate limit, `X-Ignored-Parameters`. */
  api: boolean;
  /** Whether a path id can name a record the workspace does not have (404). */
  notFound?: boolean;
}

/** Query parameters shared by the lists. */
export const PARAMETERS = {
  cursor: {
    name: 'cursor',
    schema: Type.String({ minLength: 1, maxLength: 1000 }),
    description:
      'The `nextCursor` of the previous page, as it came. Bound to the endpoint and its filters; a cursor that was altered or comes from elsewhere is 400.',
  },
  limit: {
    name: 'limit',
    schema: Type.Integer({ minimum: 1, default: 50 }),
    description:
      'Records per page: a positive integer, 50 by default; larger values give 100. Zero, negative or non-integer is 400.',
  },
  types: {
    name: 'types',
    schema: Type.String({
      pattern: `^(${ACTIVITY_TYPES.join('|')})(,(${ACTIVITY_TYPES.join('|')}))*$`,
      examples: ['email,emailOpen'],
    }),
    description: `Comma-separated activity types: ${ACTIVITY_TYPES.join(', ')}.`,
  },
  startDate: {
    name: 'startDate',
    schema: Type.String({ examples: ['2024-04-01', '2024-04-01T09:00:00+09:00'] }),
    description:
      '`YYYY-MM-DD` (from the start of that day, Korea time) or an ISO 8601 time with offset. After `endDate` is 400.',
  },
  endDate: {
    name: 'endDate',
    schema: Type.String({ examples: ['2024-04-30', '2024-04-30T18:00:00+09:00'] }),
    description:
      '`YYYY-MM-DD` (to the end of that day, Korea time) or an ISO 8601 time with offset.',
  },
} satisfies Record<string, QueryParameter>;

/** A record-id filter (`peopleId`, `dealId`, ...). */
function idFilter(name: string, description: string): QueryParameter {
  return { name, schema: Type.String({ minLength: 1, maxLength: 64 }), description };
}

const page = [PARAMETERS.cursor, PARAMETERS.limit];
const CUROSR = ['nextCurosr', 'nextCursor'] as const;

/** A GET of the API. */
function read(
  path: string,
  operationId: string,
  summary: string,
  tag: string,
  response: TSchema,
  more: Partial<Operation> = {},
): Operation {
  return {
    method: 'GET',
    path,
    operationId,
    summary,
    tag,
    query: [],
    status: 200,
    response,
    errorShape: 'A',
    api: true,
    ...more,
  };
}

/** A POST of the API (create, update or delete). */
function write(
  path: string,
  operationId: string,
  summary: string,
  tag: string,
  status: 200 | 201,
  body: TSchema | undefined,
  response: TSchema,
): Operation {
  return {
    method: 'POST',
    path,
    operationId,
    summary,
    tag,
    query: [],
    body,
    status,
    response,
    errorShape: 'A',
    api: true,
    notFound: path.includes('{'),
  };
}

/** An activity list with its record filter, `types`, `startDate` and `endDate`. */
function activityQuery(idParam: string, what: string): QueryParameter[] {
  return [
    ...page,
    idFilter(idParam, `Only the activities of this ${what}.`),
    PARAMETERS.types,
    PARAMETERS.startDate,
    PARAMETERS.endDate,
  ];
}

/** Every operation, in the order the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  // People
  read(
    '/v2/people',
    'listPeople',
    'List people',
    'People',
    ListEnvelope('peopleList', PeopleRecord),
    {
      query: page,
    },
  ),
  read(
    '/v2/people/{peopleId}',
    'getPeople',
    'Get one person',
    'People',
    RecordEnvelope('people', PeopleRecord),
    {
      notFound: true,
    },
  ),
  write(
    '/v2/people',
    'createPeople',
    'Create a person',
    'People',
    201,
    CreatePersonBody,
    CreatedEnvelope('people'),
  ),
  write(
    '/v2/people/{peopleId}',
    'updatePeople',
    'Update a person',
    'People',
    200,
    UpdatePersonBody,
    UpdatedEnvelope('people'),
  ),
  read(
    '/v2/people/activity',
    'listPeopleActivities',
    'List activities of people',
    'People',
    ListEnvelope('peopleActivityList', PeopleActivityRecord),
    {
      query: activityQuery('peopleId', 'person'),
    },
  ),
  read(
    '/v2/people/history',
    'listPeopleHistory',
    'List changes of people',
    'People',
    ListEnvelope('peopleHistoryList', PeopleHistoryRecord),
    {
      query: [...page, idFilter('peopleId', 'Only the changes of this person.')],
    },
  ),
  // Organizations
  read(
    '/v2/organization',
    'listOrganizations',
    'List organizations',
    'Organizations',
    ListEnvelope('organizationList', OrganizationRecord),
    {
      query: page,
    },
  ),
  read(
    '/v2/organization/{organizationId}',
    'getOrganization',
    'Get one organization',
    'Organizations',
    RecordEnvelope('organization', OrganizationRecord),
    {
      notFound: true,
    },
  ),
  write(
    '/v2/organization',
    'createOrganization',
    'Create an organization',
    'Organizations',
    201,
    CreateOrganizationBody,
    CreatedEnvelope('organization'),
  ),
  write(
    '/v2/organization/{organizationId}',
    'updateOrganization',
    'Update an organization',
    'Organizations',
    200,
    UpdateOrganizationBody,
    UpdatedEnvelope('organization'),
  ),
  read(
    '/v2/organization/activity',
    'listOrganizationActivities',
    'List activities of organizations',
    'Organizations',
    ListEnvelope('organizationActivityList', OrganizationActivityRecord),
    {
      query: activityQuery('organizationId', 'organization'),
    },
  ),
  read(
    '/v2/organization/history',
    'listOrganizationHistory',
    'List changes of organizations',
    'Organizations',
    ListEnvelope('organizationHistoryList', OrganizationHistoryRecord),
    {
      query: [...page, idFilter('organizationId', 'Only the changes of this organization.')],
    },
  ),
  // Deals
  read(
    '/v2/deal',
    'listDeals',
    'List deals',
    'Deals',
    ListEnvelope('dealList', DealRecord, CUROSR),
    {
      query: [
        ...page,
        {
          name: 'pipelineName',
          schema: Type.String({ minLength: 1 }),
          description:
            'Exact, case-sensitive name of a deal pipeline. A name no pipeline has is 400.',
        },
        {
          name: 'pipelineStageName',
          schema: Type.String({ minLength: 1 }),
          description:
            'Exact name of a stage; alone, it matches that stage in every deal pipeline. A stage the named pipeline lacks is 400.',
        },
      ],
    },
  ),
  read(
    '/v2/deal/{dealId}',
    'getDeal',
    'Get one deal',
    'Deals',
    RecordEnvelope('deal', SingleDealRecord),
    {
      errorShape: 'B',
      notFound: true,
    },
  ),
  write(
    '/v2/deal',
    'createDeal',
    'Create a deal',
    'Deals',
    201,
    CreateDealBody,
    CreatedEnvelope('deal'),
  ),
  write(
    '/v2/deal/{dealId}',
    'updateDeal',
    'Update a deal',
    'Deals',
    200,
    UpdateDealBody,
    UpdatedEnvelope('deal'),
  ),
  write(
    '/v2/deal/{dealId}/delete',
    'deleteDeal',
    'Delete a deal',
    'Deals',
    200,
    undefined,
    Deleted,
  ),
  read(
    '/v2/deal/{dealId}/quote',
    'listDealQuotes',
    'List the quotes of a deal',
    'Deals',
    ListEnvelope('quoteList', QuoteRecord, []),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/deal/activity',
    'listDealActivities',
    'List activities of deals',
    'Deals',
    ListEnvelope('dealActivityList', DealActivityRecord),
    {
      query: activityQuery('dealId', 'deal (or lead)'),
    },
  ),
  read(
    '/v2/deal/history',
    'listDealHistory',
    'List changes of deals',
    'Deals',
    ListEnvelope('dealHistoryList', DealHistoryRecord),
    {
      query: [...page, idFilter('dealId', 'Only the changes of this deal.')],
    },
  ),
  read(
    '/v2/deal/pipeline',
    'listDealPipelines',
    'List deal pipelines and their stages',
    'Deals',
    ListEnvelope('pipelineList', PipelineRecord, []),
  ),
  // Leads
  read(
    '/v2/lead',
    'listLeads',
    'List leads',
    'Leads',
    ListEnvelope('leadList', LeadRecord, CUROSR),
    {
      query: page,
    },
  ),
  read(
    '/v2/lead/{leadId}',
    'getLead',
    'Get one lead',
    'Leads',
    RecordEnvelope('lead', LeadRecord),
    {
      notFound: true,
    },
  ),
  write(
    '/v2/lead',
    'createLead',
    'Create a lead',
    'Leads',
    201,
    CreateLeadBody,
    CreatedEnvelope('lead'),
  ),
  write(
    '/v2/lead/{leadId}',
    'updateLead',
    'Update a lead',
    'Leads',
    200,
    UpdateLeadBody,
    UpdatedEnvelope('lead'),
  ),
  write(
    '/v2/lead/{leadId}/delete',
    'deleteLead',
    'Delete a lead',
    'Leads',
    200,
    undefined,
    Deleted,
  ),
  read(
    '/v2/lead/{leadId}/quote',
    'listLeadQuotes',
    'List the quotes of a lead',
    'Leads',
    ListEnvelope('quoteList', QuoteRecord, []),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/lead/activity',
    'listLeadActivities',
    'List activities of leads',
    'Leads',
    ListEnvelope('leadActivityList', LeadActivityRecord),
    {
      query: activityQuery('leadId', 'lead'),
    },
  ),
  read(
    '/v2/lead/history',
    'listLeadHistory',
    'List changes of leads',
    'Leads',
    ListEnvelope('leadHistoryList', LeadHistoryRecord),
    {
      query: [...page, idFilter('leadId', 'Only the changes of this lead.')],
    },
  ),
  read(
    '/v2/lead/pipeline',
    'listLeadPipelines',
    'List lead pipelines and their stages',
    'Leads',
    ListEnvelope('pipelineList', PipelineRecord, []),
  ),
  // Products and quotes
  read(
    '/v2/product',
    'listProducts',
    'List products',
    'Products and quotes',
    ListEnvelope('productList', ProductRecord),
    {
      query: page,
    },
  ),
  write(
    '/v2/product',
    'createProduct',
    'Create a product',
    'Products and quotes',
    201,
    CreateProductBody,
    CreatedEnvelope('product'),
  ),
  write(
    '/v2/quote',
    'createQuote',
    'Create a quote',
    'Products and quotes',
    201,
    CreateQuoteBody,
    CreatedEnvelope('quote'),
  ),
  // Workspace
  read('/v2/user', 'listUsers', 'List users', 'Workspace', ListEnvelope('userList', UserRecord), {
    query: page,
  }),
  read(
    '/v2/user/me',
    'getMe',
    'The token’s user and workspace',
    'Workspace',
    ObjectEnvelope('user', MeRecord),
  ),
  read('/v2/team', 'listTeams', 'List teams', 'Workspace', ListEnvelope('teamList', TeamRecord), {
    query: page,
  }),
  read('/v2/todo', 'listTodos', 'List todos', 'Workspace', ListEnvelope('todoList', TodoRecord), {
    query: page,
  }),
  read('/v2/memo', 'listMemos', 'List notes', 'Workspace', ListEnvelope('memoList', MemoRecord), {
    query: [
      ...page,
      PARAMETERS.startDate,
      PARAMETERS.endDate,
      idFilter('ownerId', 'Only the notes written by this user.'),
      idFilter('dealId', 'Only the notes of this deal.'),
      idFilter('leadId', 'Only the notes of this lead.'),
      idFilter('peopleId', 'Only the notes of this person.'),
      idFilter('organizationId', 'Only the notes of this organization.'),
    ],
  }),
  read(
    '/v2/memo/{memoId}',
    'getMemo',
    'Get one note',
    'Workspace',
    ObjectEnvelope('memo', MemoRecord),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/webForm',
    'listWebForms',
    'List web forms',
    'Workspace',
    ListEnvelope('webFormList', WebFormRecord),
    {
      query: page,
    },
  ),
  read(
    '/v2/webForm/{webFormId}/submit',
    'listWebFormSubmissions',
    'List the submissions of a web form',
    'Workspace',
    ListEnvelope('webFormSubmitList', WebFormSubmitRecord),
    {
      query: page,
      notFound: true,
    },
  ),
  read(
    '/v2/field/{type}',
    'listFields',
    'List the fields of a record type',
    'Workspace',
    ListEnvelope('fieldList', FieldRecord, []),
  ),
  // The service itself: no token, no rate limit.
  service(
    '/healthz',
    'health',
    'Liveness: 200 while the process runs',
    Type.Object({ status: Type.Literal('ok') }),
  ),
  service(
    '/readyz',
    'readiness',
    'Readiness: 200 when the database answers, else 503',
    Type.Object({ status: Type.Literal('ready') }),
  ),
  service(
    '/openapi.json',
    'openapi',
    'This document',
    Type.Object({}, { additionalProperties: true }),
  ),
  {
    ...service('/docs', 'docs', 'The interactive reference page', undefined),
    contentType: 'text/html',
  },
  {
    ...service(
      '/docs/{asset}',
      'docsAsset',
      'A file of the reference page (Swagger UI)',
      undefined,
    ),
    contentType: 'application/octet-stream',
  },
];

/** A route of the service itself, outside `/v2`. */
function service(
  path: string,
  operationId: string,
  summary: string,
  response: TSchema | undefined,
): Operation {
  return {
    method: 'GET',
    path,
    operationId,
    summary,
    tag: 'Service',
    query: [],
    status: 200,
    response,
    errorShape: 'none',
    api: false,
  };
}

/** The path parameters of an OpenAPI path: `/v2/deal/{dealId}` → `['dealId']`. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}
