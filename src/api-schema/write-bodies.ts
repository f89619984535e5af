/**
 * The write bodies, gathered from the resources that validate them (each resource folder's `schema.ts`)
 * so the OpenAPI document and the client find them in one place. These modules load server
 * code: the client takes them with `import type` only.
 */
export { CreateDealBody, UpdateDealBody } from '../resources/deals/schema.ts';
export { CreateLeadBody, UpdateLeadBody } from '../resources/leads/schema.ts';
export {
  CreateOrganizationBody,
  UpdateOrganizationBody,
} from '../resources/organizations/schema.ts';
export { CreatePersonBody, UpdatePersonBody } from '../resources/people/schema.ts';
export { CreateProductBody } from '../resources/products/schema.ts';
export { CreateQuoteBody, QuoteLineBody } from '../resources/quotes/schema.ts';
