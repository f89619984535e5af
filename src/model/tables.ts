/**
 * The tables of the store, as Kysely sees them. Columns are ASCII snake_case; every key
 * starts with `workspace_id`. Times are ISO 8601 UTC text (they sort as text and read back
 * byte for byte on every dialect); booleans are 0/1 integers; lists of ids and custom values
 * are JSON text. `body` holds the record's rendered API JSON (the read model).
 */
export interface Database {
  workspaces: WorkspaceTable;
  access_tokens: AccessTokenTable;
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
  notes: NoteTable;
  todos: TodoTable;
  web_forms: WebFormTable;
  web_form_submissions: WebFormSubmissionTable;
  sequences: SequenceTable;
  sequence_enrollments: SequenceEnrollmentTable;
  activities: ActivityTable;
  history: HistoryTable;
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

/** Record types notes, todos, enrollments, activities and history attach to. */
export type SubjectType = 'people' | 'organization' | 'deal' | 'lead' | 'product' | 'quote';

export interface NoteTable {
  workspace_id: string;
  id: string;
  subject_type: string;
  subject_id: string;
  text: string;
  author_id: string | null;
  created_at: string;
  updated_at: string;
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
  'notes',
  'todos',
  'web_forms',
  'web_form_submissions',
  'sequences',
  'sequence_enrollments',
  'activities',
  'history',
] as const satisfies readonly (keyof Database)[];
const everyTableListed: Exclude<
  keyof Database,
  'workspaces' | (typeof WORKSPACE_TABLES)[number]
> extends never
  ? true
  : never = true;
void everyTableListed;
