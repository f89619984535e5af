/**
 * The API's route table as data: every operation the server answers, with its parameters,
 * body, answer and error shape, gathered from the tables of this folder in the order the
 * OpenAPI document lists them. The document is generated from it, and
 * `test/openapi.test.ts` checks it against the routes the Fastify app really has.
 */
import { ASSOCIATION_OPERATIONS } from './associations.ts';
import { BATCH_OPERATIONS } from './batch.ts';
import { CUSTOM_OBJECT_OPERATIONS } from './custom-objects.ts';
import { DEAL_OPERATIONS } from './deals.ts';
import { EMAIL_OPERATIONS } from './emails.ts';
import { EVENT_OPERATIONS } from './events.ts';
import { FIELD_OPERATIONS } from './fields.ts';
import { FILE_OPERATIONS } from './files.ts';
import { LEAD_OPERATIONS } from './leads.ts';
import { MCP_OPERATIONS } from './mcp.ts';
import { NOTE_TODO_OPERATIONS } from './notes-todos.ts';
import type { Operation } from './operation.ts';
import { ORGANIZATION_OPERATIONS } from './organizations.ts';
import { PEOPLE_OPERATIONS } from './people.ts';
import { PRODUCT_QUOTE_OPERATIONS } from './products-quotes.ts';
import { RECORDING_OPERATIONS } from './recordings.ts';
import { SEARCH_OPERATIONS } from './search.ts';
import { SEQUENCE_OPERATIONS } from './sequences.ts';
import { SERVICE_OPERATIONS } from './service.ts';
import { USER_TEAM_OPERATIONS } from './users-teams.ts';
import { WEB_FORM_OPERATIONS } from './web-forms.ts';
import { WEBHOOK_OPERATIONS } from './webhooks.ts';

/** Every operation, in the order the document lists them. */
export const OPERATIONS: readonly Operation[] = [
  ...PEOPLE_OPERATIONS,
  ...ORGANIZATION_OPERATIONS,
  ...DEAL_OPERATIONS,
  ...LEAD_OPERATIONS,
  ...SEARCH_OPERATIONS,
  ...ASSOCIATION_OPERATIONS,
  ...PRODUCT_QUOTE_OPERATIONS,
  ...CUSTOM_OBJECT_OPERATIONS,
  ...USER_TEAM_OPERATIONS,
  ...NOTE_TODO_OPERATIONS,
  ...WEB_FORM_OPERATIONS,
  ...SEQUENCE_OPERATIONS,
  ...FIELD_OPERATIONS,
  ...FILE_OPERATIONS,
  ...EMAIL_OPERATIONS,
  ...RECORDING_OPERATIONS,
  ...EVENT_OPERATIONS,
  ...WEBHOOK_OPERATIONS,
  ...BATCH_OPERATIONS,
  ...MCP_OPERATIONS,
  ...SERVICE_OPERATIONS,
];
