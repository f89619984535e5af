/**
 * Every record schema by the name it takes in the OpenAPI document's components (and in the
 * client's types), in the order the document lists them.
 */
import type { TObject } from '@sinclair/typebox';
import {
  DealActivityRecord,
  LeadActivityRecord,
  OrganizationActivityRecord,
  PeopleActivityRecord,
} from './activities.ts';
import {
  CustomObjectActivityRecord,
  CustomObjectDefinitionRecord,
  CustomObjectHistoryRecord,
  CustomObjectRecord,
} from './custom-objects.ts';
import { DealRecord, LeadRecord, PipelineRecord, SingleDealRecord } from './deals-leads.ts';
import { FieldRecord } from './fields.ts';
import {
  DealHistoryRecord,
  LeadHistoryRecord,
  OrganizationHistoryRecord,
  PeopleHistoryRecord,
} from './history.ts';
import { MemoListRecord, MemoRecord, TodoRecord } from './notes-todos.ts';
import { OrganizationRecord, PeopleRecord } from './people-organizations.ts';
import { ProductRecord, QuoteProductRecord, QuoteRecord } from './products-quotes.ts';
import { RecordingRecord, RecordingTranscriptRecord } from './recordings.ts';
import { MeRecord, TeamRecord, UserRecord } from './users-teams.ts';
import { WebFormRecord, WebFormSubmitRecord } from './web-forms.ts';
import { NewWebhookRecord, WebhookDeliveryRecord, WebhookRecord } from './webhooks.ts';

export const RECORD_SCHEMAS = {
  People: PeopleRecord,
  Organization: OrganizationRecord,
  Deal: DealRecord,
  SingleDeal: SingleDealRecord,
  Lead: LeadRecord,
  Product: ProductRecord,
  Quote: QuoteRecord,
  QuoteProduct: QuoteProductRecord,
  CustomObjectDefinition: CustomObjectDefinitionRecord,
  CustomObject: CustomObjectRecord,
  CustomObjectActivity: CustomObjectActivityRecord,
  CustomObjectHistory: CustomObjectHistoryRecord,
  DealActivity: DealActivityRecord,
  PeopleActivity: PeopleActivityRecord,
  OrganizationActivity: OrganizationActivityRecord,
  LeadActivity: LeadActivityRecord,
  PeopleHistory: PeopleHistoryRecord,
  DealHistory: DealHistoryRecord,
  LeadHistory: LeadHistoryRecord,
  OrganizationHistory: OrganizationHistoryRecord,
  Pipeline: PipelineRecord,
  User: UserRecord,
  Me: MeRecord,
  Team: TeamRecord,
  Todo: TodoRecord,
  Memo: MemoRecord,
  MemoListItem: MemoListRecord,
  WebForm: WebFormRecord,
  WebFormSubmit: WebFormSubmitRecord,
  Field: FieldRecord,
  Webhook: WebhookRecord,
  NewWebhook: NewWebhookRecord,
  WebhookDelivery: WebhookDeliveryRecord,
  Recording: RecordingRecord,
  RecordingTranscript: RecordingTranscriptRecord,
} as const satisfies Record<string, TObject>;
export type RecordName = keyof typeof RECORD_SCHEMAS;
