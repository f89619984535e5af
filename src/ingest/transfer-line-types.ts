/**
 * The columns of every line type of the export format, in file order: each type's table and
 * what each of its columns holds (`transfer-format.ts` builds the line schemas from them).
 */
import { Type } from '@sinclair/typebox';
import { CUSTOM_FIELD_RECORD_TYPES, CUSTOM_FIELD_TYPES } from '../domain/custom-fields.ts';
import { MEMO_TYPE_IDS } from '../domain/memo-types.ts';
import { PRODUCT_KINDS } from '../domain/quotes.ts';
import type { Database } from '../model/tables.ts';
import { CHUNK_BYTES } from '../resources/files/writes.ts';
import { TODO_KINDS } from '../resources/todos/writes.ts';
import {
  type ColumnKind,
  type LineType,
  SUBJECT_LINE,
  type SubjectLineType,
} from './transfer-columns.ts';

/** Every record type a note, todo, enrollment, activity, history row or file attaches to. */
const ANY_SUBJECT = Object.keys(SUBJECT_LINE) as SubjectLineType[];

/** A recording's transcript segments and speakers, as its columns store them. */
const RecordingSegments = Type.Array(
  Type.Object(
    {
      startTime: Type.Number(),
      endTime: Type.Number(),
      text: Type.String(),
      speakerId: Type.String(),
      confidence: Type.Union([Type.Number(), Type.Null()]),
    },
    { additionalProperties: false },
  ),
);
const RecordingSpeakers = Type.Array(
  Type.Object({ speakerId: Type.String(), label: Type.String() }, { additionalProperties: false }),
);

/** An e-mail address as a sent e-mail stores it. */
const EmailAddress = Type.Object({
  email: Type.String({ maxLength: 320 }),
  name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

const id = { kind: 'id' } as const;
const time = { kind: 'time' } as const;
const text = { kind: 'text' } as const;
const name = { kind: 'text', name: true, max: 500 } as const;
const bool = { kind: 'bool' } as const;
const int = { kind: 'int' } as const;
const num = { kind: 'num' } as const;
const ref = (to: LineType): ColumnKind => ({ kind: 'ref', to });
const idList = (to: LineType): ColumnKind => ({
  kind: 'json',
  schema: Type.Array(Type.String({ minLength: 1, maxLength: 64 })),
  refs: to,
});
const customValues = {
  kind: 'json',
  schema: Type.Record(Type.String(), Type.Unknown()),
} as const;

/**
 * The columns of a line type: each one's kind, in a pair with `'null'` when it may be null,
 * or with `absentAs` when a line may leave it out (a column added since the format's first
 * version: earlier exports still import).
 */
export type Spec = Record<string, ColumnKind | [ColumnKind, 'null'] | Absent>;
/** A column a line may leave out, and the value it then has. */
export interface Absent {
  column: ColumnKind | [ColumnKind, 'null'];
  absentAs: unknown;
}
const opt = (k: ColumnKind): [ColumnKind, 'null'] => [k, 'null'];
const absentAs = (column: ColumnKind | [ColumnKind, 'null'], value: unknown): Absent => ({
  column,
  absentAs: value,
});

const owned: Spec = {
  owner_id: opt(ref('user')),
  team_ids: idList('team'),
  custom: customValues,
  created_at: time,
  updated_at: time,
};

const pipelineRecord: Spec = {
  id,
  people_id: opt(ref('person')),
  organization_id: opt(ref('organization')),
  name,
  pipeline_id: opt(ref('pipeline')),
  stage_id: opt(ref('pipelineStage')),
  stage_entered_at: opt(time),
  stage_times: absentAs(
    opt({
      kind: 'json',
      schema: Type.Record(
        Type.String(),
        Type.Tuple([Type.String(), Type.Union([Type.String(), Type.Null()]), Type.Integer()]),
      ),
    }),
    null,
  ),
  amount: opt(num),
  label: opt({ kind: 'text', max: 100 }),
  closed_at: opt(time),
  expected_close_at: opt(time),
  source: { kind: 'text', max: 100 },
  ...owned,
};

const subject = (...of: SubjectLineType[]) => ({ kind: 'subjectType', of }) as const;

/**
 * Every line type in file order: a line may refer only to records of the lines before it
 * (or already in the workspace), except custom Ref values, which may point anywhere in the file.
 * `order`: the columns its lines are sorted by, when the first is not an `id`.
 */
export const LINE_SPECS = {
  user: {
    table: 'users',
    columns: {
      id,
      name,
      email: { kind: 'text', max: 320 },
      status: { kind: 'text', max: 50 },
      role: { kind: 'text', values: ['admin', 'member'] },
      created_at: time,
      updated_at: time,
    },
  },
  team: {
    table: 'teams',
    columns: { id, name, description: opt(text), created_at: time },
  },
  teamMember: {
    table: 'team_members',
    columns: { team_id: ref('team'), user_id: ref('user'), position: int },
    order: ['team_id', 'position', 'user_id'],
  },
  pipeline: {
    table: 'pipelines',
    columns: {
      id,
      kind: { kind: 'text', values: ['deal', 'lead', 'customObject'] },
      name,
      position: int,
      created_at: time,
    },
  },
  pipelineStage: {
    table: 'pipeline_stages',
    columns: { id, pipeline_id: ref('pipeline'), name, position: int },
  },
  // A custom object definition (migration 013), with its own pipeline if it has one.
  customObjectDefinition: {
    table: 'custom_object_definitions',
    columns: {
      id,
      name,
      pipeline_id: opt(ref('pipeline')),
      position: int,
      created_at: time,
    },
  },
  customField: {
    table: 'custom_fields',
    columns: {
      id,
      record_type: { kind: 'text', values: CUSTOM_FIELD_RECORD_TYPES },
      name: { kind: 'text', name: true, max: 200 },
      type: { kind: 'text', values: CUSTOM_FIELD_TYPES },
      position: int,
      required: bool,
      options: opt({
        kind: 'json',
        schema: Type.Array(
          Type.Object(
            { id: Type.String({ minLength: 1, maxLength: 64 }), value: Type.String() },
            { additionalProperties: false },
          ),
        ),
      }),
      created_at: time,
      // The field settings of `POST /v2/field/{type}` (migration 011).
      description: absentAs(opt({ kind: 'text', max: 2000 }), null),
      show_in_create_form: absentAs(bool, false),
      is_sensitive: absentAs(bool, false),
      prevent_duplicates: absentAs(bool, false),
      // The definition a custom object's field belongs to (migration 013); '' for the others.
      custom_object_definition_id: absentAs({ kind: 'text', max: 64 }, ''),
      // A formula field's formula (migration 018); its values are computed, never stored.
      formula: absentAs(opt({ kind: 'text', max: 2000 }), null),
    },
  },
  product: {
    table: 'products',
    columns: {
      id,
      name,
      code: opt(text),
      kind: { kind: 'text', values: PRODUCT_KINDS },
      price: num,
      unit: opt(text),
      ...owned,
    },
  },
  organization: {
    table: 'organizations',
    columns: {
      id,
      name,
      email: opt({ kind: 'text', max: 320 }),
      phone: opt(text),
      profile_image: opt(text),
      linkedin: opt(text),
      source: { kind: 'text', max: 100 },
      ...owned,
    },
  },
  person: {
    table: 'people',
    columns: {
      id,
      organization_id: opt(ref('organization')),
      name,
      email: opt({ kind: 'text', max: 320 }),
      phone: opt(text),
      job_title: opt(text),
      profile_image: opt(text),
      linkedin: opt(text),
      unsubscribed: bool,
      unsubscribe_reason: opt(text),
      source: { kind: 'text', max: 100 },
      ...owned,
    },
  },
  deal: {
    table: 'deals',
    columns: {
      ...pipelineRecord,
      outcome: { kind: 'text', values: ['In progress', 'Won', 'Lost'] },
      follower_ids: idList('user'),
      participant_ids: idList('person'),
    },
  },
  lead: { table: 'leads', columns: pipelineRecord },
  quote: {
    table: 'quotes',
    columns: {
      id,
      deal_id: opt(ref('deal')),
      lead_id: opt(ref('lead')),
      name,
      is_main: bool,
      share_link: opt(text),
      ...owned,
    },
  },
  quoteLine: {
    table: 'quote_products',
    columns: {
      id,
      quote_id: ref('quote'),
      position: int,
      product_id: ref('product'),
      price: num,
      quantity: num,
      payment_count: opt({ kind: 'int', min: 1 }),
      payment_start_at: opt(time),
      custom: customValues,
    },
  },
  customObject: {
    table: 'custom_objects',
    columns: {
      id,
      definition_id: ref('customObjectDefinition'),
      record_number: { kind: 'int', min: 1 },
      name,
      pipeline_id: opt(ref('pipeline')),
      stage_id: opt(ref('pipelineStage')),
      ...owned,
    },
  },
  note: {
    table: 'notes',
    columns: {
      id,
      subject_type: subject(...ANY_SUBJECT),
      subject_id: { kind: 'subjectId' },
      text: { kind: 'text', max: 100_000 },
      type_id: absentAs(opt({ kind: 'text', values: MEMO_TYPE_IDS }), null),
      // Since migration 021. The note and todo ids are kept as they are: replies and todos
      // may come later in the file than the note.
      html_body: absentAs(opt({ kind: 'text', max: 200_000 }), null),
      parent_id: absentAs(opt({ kind: 'text', max: 64 }), null),
      todo_id: absentAs(opt({ kind: 'text', max: 64 }), null),
      author_id: opt(ref('user')),
      created_at: time,
      updated_at: time,
    },
  },
  todo: {
    table: 'todos',
    columns: {
      id,
      subject_type: subject(...ANY_SUBJECT),
      subject_id: { kind: 'subjectId' },
      title: { kind: 'text', max: 10_000 },
      kind: { kind: 'text', values: TODO_KINDS },
      start_at: opt(time),
      due_at: opt(time),
      done: bool,
      done_at: opt(time),
      owner_id: opt(ref('user')),
      created_at: time,
      updated_at: time,
      custom: customValues,
    },
  },
  webForm: {
    table: 'web_forms',
    columns: {
      id,
      name,
      description: opt(text),
      status: { kind: 'text', max: 50 },
      view_count: { kind: 'int', min: 0 },
      created_at: time,
      updated_at: time,
    },
  },
  submission: {
    table: 'web_form_submissions',
    columns: {
      id,
      web_form_id: ref('webForm'),
      people_id: opt(ref('person')),
      organization_id: opt(ref('organization')),
      deal_id: opt(ref('deal')),
      lead_id: opt(ref('lead')),
      contents: {
        kind: 'json',
        schema: Type.Array(
          Type.Object(
            { label: Type.String(), value: Type.Unknown() },
            { additionalProperties: false },
          ),
        ),
      },
      created_at: time,
    },
  },
  sequence: {
    table: 'sequences',
    columns: {
      id,
      name,
      created_at: time,
      description: absentAs(opt({ kind: 'text', max: 10_000 }), null),
    },
  },
  enrollment: {
    table: 'sequence_enrollments',
    columns: {
      id,
      sequence_id: ref('sequence'),
      subject_type: subject(...ANY_SUBJECT),
      subject_id: { kind: 'subjectId' },
      enrolled_at: time,
      active: bool,
    },
  },
  sequenceStep: {
    table: 'sequence_steps',
    columns: {
      id,
      sequence_id: ref('sequence'),
      position: { kind: 'int', min: 0 },
      type: { kind: 'text', max: 100 },
      execute_immediately: bool,
      business_day: { kind: 'int', min: 0 },
      execution_time: opt({ kind: 'text', max: 4 }),
    },
  },
  sequenceEvent: {
    table: 'sequence_timeline',
    columns: {
      id,
      enrollment_id: ref('enrollment'),
      event_type: { kind: 'text', max: 100 },
      step_index: { kind: 'int', min: 0 },
      date: time,
      email_id: opt({ kind: 'text', max: 64 }),
      link_url: opt({ kind: 'text', max: 2000 }),
      link_name: opt({ kind: 'text', max: 500 }),
    },
  },
  activity: {
    table: 'activities',
    columns: {
      id,
      subject_type: subject('people', 'organization', 'deal', 'lead', 'customObject'),
      subject_id: { kind: 'subjectId' },
      type: { kind: 'text', max: 100 },
      date: time,
      deal_status: opt({ kind: 'text', values: ['In progress', 'Won', 'Lost'] }),
      web_form_id: opt(ref('webForm')),
      sms_id: opt({ kind: 'text', max: 64 }),
      todo_id: opt({ kind: 'text', max: 64 }),
      memo_id: opt({ kind: 'text', max: 64 }),
      email_message_id: opt({ kind: 'text', max: 64 }),
      // A `recordingCreate`'s recording (migration 027): its line comes later, after its file.
      recording_id: absentAs(opt({ kind: 'text', max: 64 }), null),
    },
  },
  history: {
    table: 'history',
    columns: {
      id,
      subject_type: subject('people', 'organization', 'deal', 'lead', 'customObject'),
      subject_id: { kind: 'subjectId' },
      type: { kind: 'text', max: 100 },
      people_id: opt(ref('person')),
      organization_id: opt(ref('organization')),
      field_name: { kind: 'text', max: 200 },
      field_value: opt(text),
      owner_id: opt(ref('user')),
      created_at: time,
    },
  },
  // An uploaded file (migration 015), attached to a record or to nothing; only files whose
  // upload finished (`ready`) are exported. Its bytes follow as its `fileChunk` lines.
  file: {
    table: 'files',
    columns: {
      id,
      name: { kind: 'text', name: true, max: 1000 },
      content_type: { kind: 'text', max: 200 },
      size: { kind: 'int', min: 1, max: Number.MAX_SAFE_INTEGER },
      chunk_count: { kind: 'int', min: 1 },
      status: { kind: 'text', values: ['ready'] },
      subject_type: opt(subject(...ANY_SUBJECT)),
      subject_id: opt({ kind: 'subjectId' }),
      memo: opt({ kind: 'text', max: 100_000 }),
      owner_id: opt(ref('user')),
      created_at: time,
    },
  },
  // Up to 256 KiB of a file's bytes, base64: chunks 0, 1, ... in order after their file, every
  // one full but the last.
  fileChunk: {
    table: 'file_chunks',
    columns: {
      file_id: ref('file'),
      seq: { kind: 'int', min: 0 },
      data: { kind: 'bytes', max: CHUNK_BYTES },
    },
    order: ['file_id', 'seq'],
  },
  // An e-mail sent through `POST /v2/email` (migration 016).
  email: {
    table: 'emails',
    columns: {
      id,
      status: { kind: 'text', max: 50 },
      subject: { kind: 'text', max: 100_000 },
      from_address: { kind: 'json', schema: EmailAddress },
      to_list: { kind: 'json', schema: Type.Array(EmailAddress) },
      cc_list: { kind: 'json', schema: Type.Array(EmailAddress) },
      bcc_list: { kind: 'json', schema: Type.Array(EmailAddress) },
      html_body: { kind: 'text', max: 2_000_000 },
      text_body: { kind: 'text', max: 2_000_000 },
      // Files deleted since stay named: the e-mail went out with them.
      attachment_ids: {
        kind: 'json',
        schema: Type.Array(Type.String({ minLength: 1, maxLength: 64 })),
      },
      message_id: opt({ kind: 'text', max: 1000 }),
      sender_id: opt(ref('user')),
      idempotency_key: opt({ kind: 'text', max: 1000 }),
      request_hash: { kind: 'text', max: 200 },
      created_at: time,
    },
  },
  // A recording (migration 027), after the file that is its audio.
  recording: {
    table: 'recordings',
    columns: {
      id,
      file_id: ref('file'),
      subject_type: subject('people', 'organization', 'deal', 'lead', 'customObject'),
      subject_id: { kind: 'subjectId' },
      title: { kind: 'text', max: 500 },
      duration: num,
      source: { kind: 'text', max: 100 },
      core_summary: opt({ kind: 'text', max: 100_000 }),
      segments: { kind: 'json', schema: RecordingSegments },
      speakers: { kind: 'json', schema: RecordingSpeakers },
      owner_id: opt(ref('user')),
      created_at: time,
    },
  },
} as const satisfies Record<
  LineType,
  { table: keyof Database; columns: Spec; order?: readonly string[] }
>;
