/**
 * `salescrm/client`: a typed client of the Sales CRM API (v2). No server code and no
 * runtime dependencies: it runs wherever `fetch` does (Node 20+, browsers, or an injected
 * `fetch`).
 */

export type * from './bodies.ts';
export type {
  ActivityFilter,
  CrmClientOptions,
  DateFilter,
  DeliveryFilter,
  FieldRecordType,
  ListOptions,
  MemoFilter,
} from './client.ts';
export { CrmClient } from './client.ts';
export {
  AuthenticationError,
  ConnectionError,
  CrmApiError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors.ts';
export type { Page, PageOptions, ToArrayOptions } from './list.ts';
export { ListRequest } from './list.ts';
export type * from './records.ts';
export type { CallOptions, FetchLike, FetchResponse } from './transport.ts';
export { isRetryable } from './transport.ts';
