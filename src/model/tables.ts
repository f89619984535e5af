import type { Generated } from 'kysely';
/**
 * The tables of the store, as Kysely sees them. Columns are ASCII snake_case; every key
 * starts with `workspace_id`. Times are ISO 8601 UTC text (they sort as text and read back
 * byte for byte on every dialect); booleans are 0/1 integers; lists of ids and custom values
 * are JSON text. `body` holds the record's rendered API JSON (the read model).
 */
export interface Database {
  workspaces: WorkspaceTable;
  access_tokens: AccessTokenTable;
  token_workspaces: TokenWorkspaceTable;
  users: UserTable;
  teams: TeamTable;
  team_members: TeamMemberTable;
  pipelines: PipelineTable;
  pipeline_stages: PipelineStageTable;
  custom_fields: CustomFieldTable;
  organizations: OrganizationTable;
  people: PeopleTable;
  deals: DealTable;
  leads: LeadTable;
  products: ProductTable;
  quotes: QuoteTable;
  quote_products: QuoteProductTable;
  custom_object_definitions: CustomObjectDefinitionTable;
  custom_objects: CustomObjectTable;
  notes: NoteTable;
  todos: TodoTable;
  web_forms: WebFormTable;
  web_form_submissions: WebFormSubmissionTable;
  sequences: SequenceTable;
  sequence_enrollments: SequenceEnrollmentTable;
  sequence_steps: SequenceStepTable;
  sequence_timeline: SequenceTimelineTable;
  activities: ActivityTable;
  history: HistoryTable;
  events: EventTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  webhook_attempts: WebhookAttemptTable;
  webhook_streams: WebhookStreamTable;
  webhook_sent: WebhookSentTable;
  dispatch_leases: DispatchLeaseTable;
  files: FileTable;
  file_chunks: FileChunkTable;
  emails: EmailTable;
  recordings: RecordingTable;
  search_values: SearchValueTable;
}

/**
 * The search index (migration 012): one row per value a record's stored JSON holds of an
 * indexed field (`src/domain/search-values.ts`), so a search finds and sorts by it.
 */
export interface SearchValueTable {
  workspace_id: string;
  /** `people`, `organization`, `deal` or `lead`. */
  record_type: string;
  /** A custom field's id, `b:` and a built-in field's name, or `g:` and a name (its pairs). */
  field: string;
  /** The value as text that sorts as the value does (`indexValues`). */
  value: string;
  record_id: string;
}

/** Body column: bytes on SQLite (read back as Buffers), text on PostgreSQL. */
export type Body = Buffer | string;

export interface WorkspaceTable {
  id: string;
  name: string;
  /** Bumped by every write transaction; page caches compare it. */
  data_version: number;
  /** Key of the cursors' MACs: a cursor is only valid in its workspace. */
  cursor_secret: string;
  /** Number of the workspace's last event (events are numbered in commit order). */
  event_seq: Generated<number>;
  /** Bumped by every write that changes the tables a write reads whole: see `Catalog`. */
  catalog_version: Generated<number>;
  /**
   * No later than the earliest pending delivery of the workspace's active webhooks; null
   * when it has none: where dispatchers look for due deliveries (`outbox/due-workspaces.ts`).
   */
  deliveries_due_at: Generated<string | null>;
  created_at: string;
}

export interface AccessTokenTable {
  workspace_id: string;
  id: string;
  token_hash: string;
  user_id: string;
  name: string | null;
  created_at: string;
  revoked_at: string | null;
  /** 1: the token may only read (403 on writes). */
  read_only: Generated<number>;
}

/**
 * Which workspace each token belongs to, by the token's hash and by its id: a reference
 * table (one copy on every node of a distributed database), read before the token's row.
 */
export interface TokenWorkspaceTable {
  token_hash: string;
  token_id: string;
  workspace_id: string;
}

export interface UserTable {
  workspace_id: string;
  id: string;
  name: string;
  email: string;
  status: string;
  role: string;
  created_at: string;
  updated_at: string;
}

export interface TeamTable {
  workspace_id: string;
  id: string;
  name: string;
  description: string | null;
  created_at: string;
}

export interface TeamMemberTable {
  workspace_id: string;
  team_id: string;
  user_id: string;
  position: number;
}

export interface PipelineTable {
  workspace_id: string;
  id: string;
  /** `deal` or `lead`. */
  kind: string;
  name: string;
  position: number;
  created_at: string;
}

export interface PipelineStageTable {
  workspace_id: string;
  id: string;
  pipeline_id: string;
  name: string;
  position: number;
}

export interface CustomFieldTable {
  workspace_id: string;
  id: string;
  record_type: string;
  name: string;
  type: string;
  position: number;
  required: number;
  /** JSON array of `{id, value}` for select fields, else null. */
  options: string | null;
  created_at: string;
  description: Generated<string | null>;
  /** 0/1: the record create form shows the field (`required` needs it). */
  show_in_create_form: Generated<number>;
  /** 0/1. */
  is_sensitive: Generated<number>;
  /** 0/1: one record at most holds a given value (string and number fields). */
  prevent_duplicates: Generated<number>;
  /** The custom object definition a `customObject` field belongs to; `''` for other types. */
  custom_object_definition_id: Generated<string>;
  /** A formula field's formula (its values are computed when the record renders), else null. */
  formula: Generated<string | null>;
}

interface Owned {
  owner_id: string | null;
  /** JSON array of team ids. */
  team_ids: string;
  /** JSON object: custom field id to stored value. */
  custom: string;
  created_at: string;
  updated_at: string;
  body: Body | null;
}

export interface OrganizationTable extends Owned {
  workspace_id: string;
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  profile_image: string | null;
  linkedin: string | null;
  source: string;
  /** `uniqueKey(name)`: names are unique in a workspace, case and spacing aside. */
  name_key: string | null;
}

export interface PeopleTable extends Owned {
  workspace_id: string;
  id: string;
  organization_id: string | null;
  name: string;
  email: string | null;
  phone: string | null;
  job_title: string | null;
  profile_image: string | null;
  linkedin: string | null;
  unsubscribed: number;
  unsubscribe_reason: string | null;
  source: string;
  /** `uniqueKey(email)`: e-mails are unique in a workspace, case and spacing aside. */
  email_key: string | null;
}

interface PipelineRecord extends Owned {
  workspace_id: string;
  id: string;
  people_id: string | null;
  organization_id: string | null;
  name: string;
  pipeline_id: string | null;
  stage_id: string | null;
  stage_entered_at: string | null;
  /** JSON: the record's stage times (`src/domain/stage-times.ts`); null before a stage change. */
  stage_times: Generated<string | null>;
  amount: number | null;
  /** The `상태` label; null while it follows the outcome. */
  label: string | null;
  closed_at: string | null;
  expected_close_at: string | null;
  source: string;
}

export interface DealTable extends PipelineRecord {
  /** `In progress`, `Won` or `Lost`. */
  outcome: string;
  /** JSON array of user ids. */
  follower_ids: string;
  /** JSON array of people ids. */
  participant_ids: string;
}

export type LeadTable = PipelineRecord;

export interface ProductTable extends Owned {
  workspace_id: string;
  id: string;
  name: string;
  code: string | null;
  kind: string;
  price: number;
  unit: string | null;
}

export interface QuoteTable extends Owned {
  workspace_id: string;
  id: string;
  deal_id: string | null;
  lead_id: string | null;
  name: string;
  is_main: number;
  share_link: string | null;
}

export interface QuoteProductTable {
  workspace_id: string;
  id: string;
  quote_id: string;
  position: number;
  product_id: string;
  price: number;
  quantity: number;
  payment_count: number | null;
  payment_start_at: string | null;
  custom: string;
}

/**
 * A workspace's own record type (docs/decisions.md, Other resources), optionally with a pipeline.
 */
export interface CustomObjectDefinitionTable {
  workspace_id: string;
  id: string;
  name: string;
  /** Its pipeline (`pipelines.kind` `customObject`), or null. */
  pipeline_id: string | null;
  position: number;
  created_at: string;
}

/** A record of a custom object definition. */
export interface CustomObjectTable extends Owned {
  workspace_id: string;
  id: string;
  definition_id: string;
  /** `RecordId`: its number within its definition, from 1, in creation order. */
  record_number: number;
  /** The 대표 field (`이름`). */
  name: string;
  pipeline_id: string | null;
  stage_id: string | null;
}

/** Record types notes, todos, enrollments, activities and history attach to. */
export type SubjectType =
  | 'people'
  | 'organization'
  | 'deal'
  | 'lead'
  | 'product'
  | 'quote'
  | 'customObject';

export interface NoteTable {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  text: string;
  author_id: string | null;
  created_at: string;
  updated_at: string;
  /** One of the note types (`memo-type-call`, ...), or null. */
  type_id: Generated<string | null>;
  /** The note as HTML when it was written so; null for a plain-text note. */
  html_body: Generated<string | null>;
  /** The note this one answers (a reply), or null. */
  parent_id: Generated<string | null>;
  /** The todo it was written on (the note is on the todo's record too), or null. */
  todo_id: Generated<string | null>;
}

export interface TodoTable {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  title: string;
  kind: string;
  start_at: string | null;
  due_at: string | null;
  done: number;
  done_at: string | null;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  /** JSON object: custom field id to stored value. */
  custom: string;
}

export interface WebFormTable {
  workspace_id: string;
  id: string;
  name: string;
  description: string | null;
  status: string;
  view_count: number;
  created_at: string;
  updated_at: string;
}

export interface WebFormSubmissionTable {
  workspace_id: string;
  id: string;
  web_form_id: string;
  people_id: string | null;
  organization_id: string | null;
  deal_id: string | null;
  lead_id: string | null;
  /** JSON array of `{label, value}`. */
  contents: string;
  created_at: string;
}

export interface SequenceTable {
  workspace_id: string;
  id: string;
  name: string;
  /** Null for sequences stored before descriptions were kept. */
  description: string | null;
  created_at: string;
}

export interface SequenceEnrollmentTable {
  workspace_id: string;
  id: string;
  sequence_id: string;
  subject_type: string;
  subject_id: string;
  enrolled_at: string;
  active: number;
}

/** A step of a sequence, in `position` order (0-based). */
export interface SequenceStepTable {
  workspace_id: string;
  id: string;
  sequence_id: string;
  position: number;
  /** `sendEmail`, `createTodo`, ... */
  type: string;
  execute_immediately: number;
  /** Business days after the step before (0 for an immediate step). */
  business_day: number;
  /** `HHMM` in Korea time; null for an immediate step. */
  execution_time: string | null;
}

/** What happened in an enrollment: an e-mail of a step sent, opened, clicked or answered. */
export interface SequenceTimelineTable {
  workspace_id: string;
  id: string;
  enrollment_id: string;
  /** `sendEmail`, `emailOpen`, `emailLinkClick`, `emailReply`. */
  event_type: string;
  step_index: number;
  date: string;
  email_id: string | null;
  link_url: string | null;
  link_name: string | null;
}

export interface ActivityTable {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  type: string;
  date: string;
  deal_status: string | null;
  web_form_id: string | null;
  sms_id: string | null;
  todo_id: string | null;
  memo_id: string | null;
  email_message_id: string | null;
  /** The recording of a `recordingCreate` activity (migration 027). */
  recording_id: string | null;
  /** The record as its subject's list shows it: deal-activity shape for deals and leads. */
  body: Body | null;
  /** A lead's activity as `GET /v2/lead/activity` shows it (null for other subjects). */
  lead_body: Body | null;
}

export interface HistoryTable {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  type: string;
  people_id: string | null;
  organization_id: string | null;
  field_name: string;
  field_value: string | null;
  owner_id: string | null;
  created_at: string;
  body: Body | null;
}

/**
 * One event of the outbox: a change to a person, organization, lead or deal (docs/decisions.md,
 * Events and webhooks).
 */
export interface EventTable {
  workspace_id: string;
  /** Its number in the workspace, in commit order. */
  seq: number;
  /** The triggering write's id, shared by the events it causes. */
  event_id: string;
  event: string;
  /** `people`, `organization`, `lead` or `deal`. */
  object_type: string;
  object_id: string;
  /** The changed key of a `수정`. */
  field_name: string | null;
  occurred_at: string;
  /** The payload as delivered, keys in their order. */
  payload: string;
}

/** A registered webhook; `object_types`, `events` and `fields` are JSON lists. */
export interface WebhookTable {
  workspace_id: string;
  id: string;
  url: string;
  object_types: string;
  events: string;
  /** Field names whose `수정` fire; null for every field. */
  fields: string | null;
  status: 'active' | 'disabled';
  secret: string;
  /** The secret before the last rotation, still signing until `previous_secret_until`. */
  previous_secret: string | null;
  previous_secret_until: string | null;
  /** Deliveries that ended `failed` in a row; ten disable the webhook. */
  failure_streak: number;
  created_at: string;
  updated_at: string;
}

/** One event to send to one webhook, and how its sending went. */
export interface WebhookDeliveryTable {
  workspace_id: string;
  id: string;
  webhook_id: string;
  event_seq: number;
  status: 'pending' | 'delivered' | 'failed';
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  /** When it is due; null once it is delivered or failed. */
  next_attempt_at: string | null;
  /** A dispatcher is sending it until then. */
  leased_until: string | null;
  delivered_at: string | null;
  created_at: string;
}

/** One try at sending a delivery. */
export interface WebhookAttemptTable {
  workspace_id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
}

/**
 * A webhook's stream of first attempts (migration 031): the dispatcher that holds it sends
 * them with no delivery row; `seq`, its mark, the event up to which each the webhook wants
 * has a delivery row or a sent row.
 */
export interface WebhookStreamTable {
  workspace_id: string;
  webhook_id: string;
  seq: number;
  /** The dispatcher that holds it; null when none does. */
  holder: string | null;
  /** Its holder's lease ends then. */
  leased_until: string | null;
}

/** A streamed first attempt answered 2xx (migration 031): a delivery delivered at once. */
export interface WebhookSentTable {
  workspace_id: string;
  webhook_id: string;
  event_seq: number;
  id: string;
  status_code: number;
  delivered_at: string;
}

/**
 * The lease of the one dispatcher of an SQLite database. SQLite only: PostgreSQL's
 * dispatchers hold no lease (migration 025 drops the table there).
 */
export interface DispatchLeaseTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** A file uploaded through `POST /v2/file`; its bytes are its chunks. */
export interface FileTable {
  workspace_id: string;
  id: string;
  name: string;
  /** The media type it is served with (from its checked extension). */
  content_type: string;
  size: number;
  chunk_count: number;
  /** `uploading` while its chunks arrive, `ready` once attached and served. */
  status: 'uploading' | 'ready';
  /** The record it is attached to (`deal`, ..., `customObject`), or null for an upload only. */
  subject_type: string | null;
  subject_id: string | null;
  memo: string | null;
  owner_id: string | null;
  created_at: string;
}

/** A recording (migration 027): a call another system recorded, with its audio file. */
export interface RecordingTable {
  workspace_id: string;
  id: string;
  /** Its audio: a ready file of `files`, one recording a file. */
  file_id: string;
  /** The record it is of: `people`, `organization`, `deal`, `lead` or `customObject`. */
  subject_type: string;
  subject_id: string;
  title: string;
  /** Seconds. */
  duration: number;
  /** Where it came from (`upload`). */
  source: string;
  core_summary: string | null;
  /** JSON array of `{startTime, endTime, text, speakerId, confidence}` (times in ms). */
  segments: string;
  /** JSON array of `{speakerId, label}`. */
  speakers: string;
  owner_id: string | null;
  created_at: string;
}

/** Up to 256 KiB of a file's bytes, numbered from 0. */
export interface FileChunkTable {
  workspace_id: string;
  file_id: string;
  seq: number;
  data: Buffer;
}

/** An e-mail sent through `POST /v2/email`. */
export interface EmailTable {
  workspace_id: string;
  id: string;
  /** `sending` while the SMTP server is asked, `delivery` once it took the message. */
  status: string;
  subject: string;
  /** JSON `{email, name}`. */
  from_address: string;
  /** JSON arrays of `{email, name}`. */
  to_list: string;
  cc_list: string;
  bcc_list: string;
  html_body: string;
  /** The HTML body as plain text. */
  text_body: string;
  /** JSON array of the attached files' ids. */
  attachment_ids: string;
  /** The Message-ID the message went out with. */
  message_id: string | null;
  sender_id: string | null;
  idempotency_key: string | null;
  /** SHA-256 of the request's body: a key sent again with another body is refused. */
  request_hash: string;
  created_at: string;
}

/**
 * Tables that belong to no one workspace and are small: on a database distributed by
 * workspace, each is a reference table, copied to every node (docs/deploy.md).
 */
export const REFERENCE_TABLES = ['token_workspaces'] as const satisfies readonly (keyof Database)[];

/** Every table keyed by workspace; the type check below keeps the list complete. */
export const WORKSPACE_TABLES = [
  'access_tokens',
  'users',
  'teams',
  'team_members',
  'pipelines',
  'pipeline_stages',
  'custom_fields',
  'organizations',
  'people',
  'deals',
  'leads',
  'products',
  'quotes',
  'quote_products',
  'custom_object_definitions',
  'custom_objects',
  'notes',
  'todos',
  'web_forms',
  'web_form_submissions',
  'sequences',
  'sequence_enrollments',
  'sequence_steps',
  'sequence_timeline',
  'activities',
  'history',
  'events',
  'webhooks',
  'webhook_deliveries',
  'webhook_attempts',
  'webhook_streams',
  'webhook_sent',
  'files',
  'file_chunks',
  'emails',
  'recordings',
  'search_values',
] as const satisfies readonly (keyof Database)[];
const everyTableListed: Exclude<
  keyof Database,
  | 'workspaces'
  | 'dispatch_leases'
  | (typeof REFERENCE_TABLES)[number]
  | (typeof WORKSPACE_TABLES)[number]
> extends never
  ? true
  : never = true;
void everyTableListed;
