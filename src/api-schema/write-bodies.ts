/**
 * The write bodies, gathered from the resources that validate them (each resource folder's `schema.ts`)
 * so the OpenAPI document and the client find them in one place. These modules load server
 * code: the client takes them with `import type` only.
 */
export {
  BatchCreateBody,
  BatchReadBody,
  BatchTypeBody,
  BatchUpdateBody,
} from './bodies/batch.ts';
export { CreateCustomObjectBody, UpdateCustomObjectBody } from './bodies/custom-objects.ts';
export { CreateDealBody, UpdateDealBody } from './bodies/deals.ts';
export { CreateFieldBody, UpdateFieldBody } from './bodies/fields.ts';
export { CreateLeadBody, UpdateLeadBody } from './bodies/leads.ts';
export { MergeBody } from './bodies/merges.ts';
export { AddMemoBody, CreateTodoBody, UpdateTodoBody } from './bodies/notes-todos.ts';
export {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from './bodies/organizations.ts';
export { CreatePersonBody, UpdatePersonBody } from './bodies/people.ts';
export { CreateProductBody, UpdateProductBody } from './bodies/products.ts';
export { CreateQuoteBody, QuoteLineBody } from './bodies/quotes.ts';
export { CreateRecordingBody } from './bodies/recordings.ts';
export { EnrollBody } from './bodies/sequences.ts';
export { CreateWebhookBody, UpdateWebhookBody } from './bodies/webhooks.ts';
