/**
 * `salescrm/client`: a typed client of the Sales CRM API (v2). No server code and no
 * runtime dependencies: it runs wherever `fetch` does (Node 20+, browsers, or an injected
 * `fetch`).
 * It also verifies the signatures of the service's webhook deliveries (`verifyWebhook`).
 */

export type * from './batch.ts';
export type * from './bodies.ts';
export type {
  ActivityFilter,
  BatchReadRecord,
  BatchRecordOf,
  CrmClientOptions,
  DateFilter,
  DeliveryFilter,
  FieldRecordType,
  ListOptions,
  MemoFilter,
  TodoFilter,
} from './client.ts';
export { CrmClient } from './client.ts';
export {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  CrmApiError,
  GoneError,
  InsufficientStorageError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ValidationError,
} from './errors.ts';
export {
  EventFeed,
  type EventFeedOptions,
  type EventFeedPage,
  type EventObjectType,
} from './event-feed.ts';
export type {
  CustomObjectCreatedEvent,
  CustomObjectDeletedEvent,
  CustomObjectEvent,
  CustomObjectUpdatedEvent,
  EventFeedItem,
  EventFieldValue,
  RecordCreatedEvent,
  RecordDeletedEvent,
  RecordEvent,
  RecordMergedEvent,
  RecordUpdatedEvent,
  WebhookEvent,
  WebhookVerifyEvent,
} from './events.ts';
export type { Page, PageOptions, ToArrayOptions } from './list.ts';
export { ListRequest } from './list.ts';
export type * from './records.ts';
export type { CallOptions, Download, FetchLike, FetchResponse } from './transport.ts';
export { isRetryable } from './transport.ts';
export type {
  SignWebhookForTestOptions,
  VerifyWebhookOptions,
  WebhookHeaders,
  WebhookVerificationReason,
} from './webhooks.ts';
export { signWebhookForTest, verifyWebhook, WebhookVerificationError } from './webhooks.ts';
