/**
 * The records the client returns, typed from the API's own record schemas
 * (`src/api-schema/records/`, type-only: nothing of them is loaded at run time), with each
 * record type's custom fields added from the client's generic parameter.
 */
import type * as Envelopes from '../api-schema/envelopes.ts';
import type * as Primitives from '../api-schema/primitives.ts';
import type {
  DealActivityRecord,
  LeadActivityRecord,
  OrganizationActivityRecord,
  PeopleActivityRecord,
} from '../api-schema/records/activities.ts';
import type { AssociationItemRecord } from '../api-schema/records/associations.ts';
import type {
  CustomObjectActivityRecord,
  CustomObjectDefinitionRecord,
  CustomObjectHistoryRecord,
  CustomObjectRecord,
  CustomObjectUpdated as CustomObjectUpdatedRecord,
} from '../api-schema/records/custom-objects.ts';
import type {
  AnyPipelineRecord,
  DealRecord,
  LeadRecord,
  PipelineRecord,
  SingleDealRecord,
} from '../api-schema/records/deals-leads.ts';
import type { EmailRecord, SentEmail as SentEmailRecord } from '../api-schema/records/emails.ts';
import type { FieldDefinitionRecord, FieldRecord } from '../api-schema/records/fields.ts';
import type {
  FileListItem as FileListItemSchema,
  UploadedFile as UploadedFileSchema,
} from '../api-schema/records/files.ts';
import type {
  DealHistoryRecord,
  LeadHistoryRecord,
  OrganizationHistoryRecord,
  PeopleHistoryRecord,
} from '../api-schema/records/history.ts';
import type {
  MemoListRecord,
  MemoRecord,
  MemoTypeRecord,
  TodoRecord,
} from '../api-schema/records/notes-todos.ts';
import type {
  OrganizationRecord,
  PeopleRecord,
} from '../api-schema/records/people-organizations.ts';
import type {
  ProductRecord,
  QuoteProductRecord,
  QuoteRecord,
} from '../api-schema/records/products-quotes.ts';
import type {
  RecordingRecord,
  RecordingTranscriptRecord,
} from '../api-schema/records/recordings.ts';
import type {
  SequenceEnrollmentRecord,
  SequenceRecord,
  SequenceStepRecord,
  SequenceTimelineRecord,
} from '../api-schema/records/sequences.ts';
import type { MeRecord, TeamRecord, UserRecord } from '../api-schema/records/users-teams.ts';
import type { WebFormRecord, WebFormSubmitRecord } from '../api-schema/records/web-forms.ts';
import type {
  NewWebhookRecord,
  WebhookDeliveryRecord,
  WebhookRecord,
} from '../api-schema/records/webhooks.ts';
import type { FileObjectType as FileObjectTypeName } from '../domain/file-types.ts';

/** No custom fields: the default of every record type. */
export type NoCustomFields = Record<never, never>;

/**
 * Custom fields of a workspace by record type: each maps a field name to its value type
 * (unset fields read as null). `salescrm types --workspace ID` prints this for a
 * workspace, e.g. `{ people: { '고객 등급': 'VIP' | '일반' | null } }`.
 */
export interface CustomFieldTypes {
  people?: object;
  organization?: object;
  deal?: object;
  lead?: object;
  product?: object;
  quote?: object;
  quoteProduct?: object;
  todo?: object;
  /** Custom objects: the fields of every definition (each record has its definition's). */
  customObject?: object;
}

/** The custom fields `C` gives record type `K`, or none. */
export type CustomFieldsOf<
  C extends CustomFieldTypes,
  K extends keyof CustomFieldTypes,
> = C[K] extends object ? C[K] : NoCustomFields;

/** A reference to another record: `{id, name}`. */
export type Ref = Primitives.Ref;
/** ISO 8601 UTC with milliseconds, e.g. `2024-04-08T05:25:26.020Z`. */
export type Timestamp = Primitives.Timestamp;

/** A person (docs/decisions.md, Record keys) with the workspace's people custom fields. */
export type Person<C extends CustomFieldTypes = NoCustomFields> = PeopleRecord &
  CustomFieldsOf<C, 'people'>;
/** An organization (docs/decisions.md, Record keys) with its custom fields. */
export type Organization<C extends CustomFieldTypes = NoCustomFields> = OrganizationRecord &
  CustomFieldsOf<C, 'organization'>;
/** A deal as lists show it (docs/decisions.md, Record keys) with its custom fields. */
export type Deal<C extends CustomFieldTypes = NoCustomFields> = DealRecord &
  CustomFieldsOf<C, 'deal'>;
/** One deal as `GET /v2/deal/{dealId}` shows it: the list record plus four keys. */
export type DealDetail<C extends CustomFieldTypes = NoCustomFields> = SingleDealRecord &
  CustomFieldsOf<C, 'deal'>;
/** A lead (the deal's shape) with its custom fields. */
export type Lead<C extends CustomFieldTypes = NoCustomFields> = LeadRecord &
  CustomFieldsOf<C, 'lead'>;
/** A product (docs/decisions.md, Record keys) with its custom fields. */
export type Product<C extends CustomFieldTypes = NoCustomFields> = ProductRecord &
  CustomFieldsOf<C, 'product'>;
/** A line of a quote with the quote-product custom fields. */
export type QuoteProduct<C extends CustomFieldTypes = NoCustomFields> = QuoteProductRecord &
  CustomFieldsOf<C, 'quoteProduct'>;
/** A quote (docs/decisions.md, Record keys) with its custom fields, its lines with theirs. */
export type Quote<C extends CustomFieldTypes = NoCustomFields> = Omit<
  QuoteRecord,
  '견적 구성 상품'
> & { '견적 구성 상품': QuoteProduct<C>[] } & CustomFieldsOf<C, 'quote'>;
/** A todo with its custom fields. */
export type Todo<C extends CustomFieldTypes = NoCustomFields> = TodoRecord &
  CustomFieldsOf<C, 'todo'>;

/** A custom object definition (`{id, name}`). */
export type CustomObjectDefinition = CustomObjectDefinitionRecord;
/**
 * A custom object record; its definition's custom fields follow, so those `C` gives for
 * `customObject` (the fields of every definition) are each optional.
 */
export type CustomObject<C extends CustomFieldTypes = NoCustomFields> = CustomObjectRecord &
  Partial<CustomFieldsOf<C, 'customObject'>>;
/** An activity of a custom object. */
export type CustomObjectActivity = CustomObjectActivityRecord;
/** A change of a custom object. */
export type CustomObjectHistory = CustomObjectHistoryRecord;
/** What `customObjects.update` answers: the definition's and the record's id and name. */
export type CustomObjectUpdated = CustomObjectUpdatedRecord;

/** An activity of a deal or a lead (docs/decisions.md, Record keys). */
export type DealActivity = DealActivityRecord;
/** An activity of a person. */
export type PeopleActivity = PeopleActivityRecord;
/** An activity of an organization. */
export type OrganizationActivity = OrganizationActivityRecord;
/** An activity of a lead. */
export type LeadActivity = LeadActivityRecord;
/** The kinds of activity (`types` filter). */
export type ActivityType = DealActivityRecord['type'];
/** A change of a person (docs/decisions.md, Record keys). */
export type PeopleHistory = PeopleHistoryRecord;
/** A change of a deal. */
export type DealHistory = DealHistoryRecord;
/** A change of a lead. */
export type LeadHistory = LeadHistoryRecord;
/** A change of an organization. */
export type OrganizationHistory = OrganizationHistoryRecord;
/** A pipeline with its stages. */
export type Pipeline = PipelineRecord;
/** A deal or lead pipeline of `pipelines.list`, its ids under `_id`. */
export type AnyPipeline = AnyPipelineRecord;
/** A user of the workspace. */
export type User = UserRecord;
/** The token's user with its workspace (`room`). */
export type Me = MeRecord;
/** A team with its members. */
export type Team = TeamRecord;
/** A note. */
export type Memo = MemoRecord;
/** A note as `memos.list` gives it: with the `cursorId` that lists the notes after it. */
export type MemoListItem = MemoListRecord;
/** A type of note (`_id`, `value`, `color`). */
export type MemoType = MemoTypeRecord;
/** A web form. */
export type WebForm = WebFormRecord;
/** A submission of a web form. */
export type WebFormSubmission = WebFormSubmitRecord;
/** A record linked by a custom Ref field, `label` the field's name. */
export type AssociationItem = AssociationItemRecord;
/** A sequence (its id under `_id`). */
export type Sequence = SequenceRecord;
/** A step of a sequence. */
export type SequenceStep = SequenceStepRecord;
/** An enrollment of a person in a sequence (its id under `_id`). */
export type SequenceEnrollment = SequenceEnrollmentRecord;
/** An event of an enrollment's timeline. */
export type SequenceTimelineEvent = SequenceTimelineRecord;
/** A field of a record type (`GET /v2/field/{type}`). */
export type Field = FieldRecord;
/** A custom field's definition, as creating or changing it answers. */
export type FieldDefinition = FieldDefinitionRecord;
/** A webhook (lists and reads never show its secret). */
export type Webhook = WebhookRecord;
/** A webhook with its signing secret, as creation and rotation answer (shown only then). */
export type NewWebhook = NewWebhookRecord;
/** A delivery of an event to a webhook, and how its sending went. */
export type WebhookDelivery = WebhookDeliveryRecord;
/** Where a delivery is (`deliveries` filter). */
export type WebhookDeliveryStatus = WebhookDeliveryRecord['status'];

/** What a create answers: the new record's id, name and creation time. */
export type Created = Envelopes.Created;
/** What an update answers: the record's id, name and update time. */
export type Updated = Envelopes.Updated;

/** A record found by a search: `id`, `name` (its `이름`), and the fields `fieldList` chose. */
export type SearchObject = { id: string; name: string | null } & Record<string, unknown>;

/** A file attached to a record, as `GET /v2/file` lists it. */
export type FileListItem = FileListItemSchema;
/** An uploaded file: its id and name. */
export type UploadedFile = UploadedFileSchema;
/** The record types a file attaches to (`customObject` in camelCase, as the live API). */
export type FileObjectType = FileObjectTypeName;
/** A sent e-mail, as `GET /v2/email/{emailId}` answers it. */
export type Email = EmailRecord;
/** What a send answers: the e-mail's id and its Message-ID. */
export type SentEmail = SentEmailRecord;
/** A recording, as `GET /v2/recording/{recordingId}` answers it. */
export type Recording = RecordingRecord;
/** A recording's transcript: its segments in time order and its speakers. */
export type RecordingTranscript = RecordingTranscriptRecord;
