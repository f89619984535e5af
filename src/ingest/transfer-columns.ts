/**
 * The words the export format's line types are described in: what a column holds, a column,
 * the line types in file order, and the stored subject types with their line types.
 */
import type { TSchema } from '@sinclair/typebox';

/** What a column holds, which decides its schema and its conversion. */
export type ColumnKind =
  | { kind: 'id' }
  | { kind: 'ref'; to: LineType }
  | { kind: 'subjectType'; of: readonly SubjectLineType[] }
  | { kind: 'subjectId' }
  | { kind: 'text'; max?: number; name?: boolean; values?: readonly string[] }
  | { kind: 'time' }
  /** An integer column: PostgreSQL's `integer` unless `max` says more (a `bigint`). */
  | { kind: 'int'; min?: number; max?: number }
  | { kind: 'num' }
  | { kind: 'bool' }
  | { kind: 'json'; schema: TSchema; refs?: LineType }
  /** Bytes, base64 in the line (up to `max` bytes): a file's chunk. */
  | { kind: 'bytes'; max: number };

/** One column of a line type. */
export interface Column {
  /** The column in the table. */
  name: string;
  /** The key in the line: the column name, except `type` (the line's own key), which is `kind`. */
  key: string;
  type: ColumnKind;
  nullable: boolean;
  /**
   * A column added to the format after version 1 went out: a line without it (an export of
   * an earlier salescrm) is read with this value. Absent: the column is required.
   */
  absent?: { value: unknown };
}

/** Subject types as stored (`subject_type`), each with the line type of its records. */
export const SUBJECT_LINE = {
  people: 'person',
  organization: 'organization',
  deal: 'deal',
  lead: 'lead',
  product: 'product',
  quote: 'quote',
  customObject: 'customObject',
} as const;
export type SubjectLineType = keyof typeof SUBJECT_LINE;

/** The type of a data line, in file order. */
export type LineType =
  | 'user'
  | 'team'
  | 'teamMember'
  | 'pipeline'
  | 'pipelineStage'
  | 'customObjectDefinition'
  | 'customField'
  | 'product'
  | 'organization'
  | 'person'
  | 'deal'
  | 'lead'
  | 'quote'
  | 'quoteLine'
  | 'customObject'
  | 'note'
  | 'todo'
  | 'webForm'
  | 'submission'
  | 'sequence'
  | 'enrollment'
  | 'sequenceStep'
  | 'sequenceEvent'
  | 'activity'
  | 'history'
  | 'file'
  | 'fileChunk'
  | 'email'
  | 'recording';
