/**
 * The lines of what `content-reads.ts` read: custom object definitions and records, their
 * notes, todos, activities and history, files with their bytes, sent e-mails and recordings
 * (`docs/import-format.md`). `to-lines.ts` calls each where its lines go in the format's
 * order. What the reads do not show is made up as `docs/pull.md` says.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { extensionOf, FILE_OBJECT_TYPES } from '../../domain/file-types.ts';
import { CHUNK_BYTES } from '../../resources/files/writes.ts';
import { fileBytesPath, recordIds } from './content-reads.ts';
import { type Line, type Rec, refId, refIds } from './refs.ts';
import type { Spool } from './spool.ts';

/** Counts what the source served that the lines leave out. */
export type Skip = (what: string, n?: number) => void;

/** The audio kinds a recording's file is of (`docs/decisions.md`, Recordings). */
const AUDIO = new Set(['mp3', 'm4a', 'wav', 'ogg', 'webm']);

/**
 * Custom object definitions, each with its pipeline: the one its records are on, else a
 * custom objects' pipeline no definition's records are on, in the lists' order (no read
 * shows a definition's pipeline). Their creation times are made up, in the list's order.
 */
export function definitionLines(
  spool: Pick<Spool, 'values'>,
  customPipelines: readonly string[],
  orderTime: () => string,
): Line[] {
  const pipelineOf = new Map<string, string>();
  for (const o of spool.values('customObjects')) {
    const p = refId(o.파이프라인);
    if (p !== null) pipelineOf.set(String(o.customObjectDefinitionId), p);
  }
  const claimed = new Set(pipelineOf.values());
  const free = customPipelines.filter((p) => !claimed.has(p));
  return [...spool.values('customObjectDefinitions')].map((d, position) => ({
    type: 'customObjectDefinition',
    id: d.id,
    name: d.name,
    pipeline_id: pipelineOf.get(String(d.id)) ?? free.shift() ?? null,
    position,
    created_at: orderTime(),
  }));
}

/** A custom object's line; `custom` its values in stored form. */
export function customObjectLine(o: Rec, custom: Rec): Line {
  return {
    type: 'customObject',
    id: o.id,
    definition_id: o.customObjectDefinitionId,
    record_number: o.RecordId,
    name: o.이름,
    pipeline_id: refId(o.파이프라인),
    stage_id: refId(o['파이프라인 단계']),
    owner_id: refId(o.담당자),
    team_ids: refIds(o.팀),
    custom,
    created_at: o['생성 날짜'],
    updated_at: o['수정 날짜'],
  };
}

/**
 * The custom object each todo of no other record is of. The todo list does not name it: a
 * `todoCreate` activity of the custom object does; the others go to custom objects whose
 * counts (`전체 TODO`, `완료 TODO`) still want one, an open one first to the object whose
 * `다음 TODO` is its title, so that each object's TODO keys come out as the source's.
 */
export function customObjectOfTodos(
  spool: Pick<Spool, 'values'>,
  todos: readonly Rec[],
): Map<string, string> {
  const of = new Map<string, string>();
  const objects = [...spool.values('customObjects')];
  const known = new Set(objects.map((o) => String(o.id)));
  for (const a of spool.values('customObjectActivities')) {
    if (typeof a.todoId === 'string' && known.has(String(a.customObjectId)))
      of.set(a.todoId, String(a.customObjectId));
  }
  const want = new Map<string, { done: number; open: number; next: unknown }>();
  for (const o of objects) {
    const done = Number(o['완료 TODO'] ?? 0);
    want.set(String(o.id), {
      done,
      open: Number(o['전체 TODO'] ?? 0) - done,
      next: o['다음 TODO'],
    });
  }
  for (const t of todos) {
    const w = of.has(String(t.id)) ? want.get(of.get(String(t.id))!) : undefined;
    if (w) t.완료 === true ? w.done-- : w.open--;
  }
  const place = (t: Rec, pick: (w: { done: number; open: number; next: unknown }) => boolean) => {
    for (const [id, w] of want) {
      if (!pick(w)) continue;
      of.set(String(t.id), id);
      t.완료 === true ? w.done-- : w.open--;
      return true;
    }
    return false;
  };
  for (const t of todos) {
    if (of.has(String(t.id))) continue;
    if (t.완료 === true) place(t, (w) => w.done > 0);
    else place(t, (w) => w.open > 0 && w.next === t.내용) || place(t, (w) => w.open > 0);
  }
  return of;
}

/** A custom object's activity as an `activity` line. */
export function customObjectActivityLine(a: Rec, recordings: ReadonlySet<string>): Line {
  const recordingId = typeof a.recordingId === 'string' ? a.recordingId : null;
  return {
    type: 'activity',
    id: a.id,
    subject_type: 'customObject',
    subject_id: a.customObjectId,
    kind: a.type,
    date: a.date,
    deal_status: null,
    web_form_id: null,
    sms_id: a.smsId,
    todo_id: a.todoId,
    memo_id: a.memoId,
    email_message_id: a.emailId,
    recording_id: recordingId !== null && recordings.has(recordingId) ? recordingId : null,
  };
}

/** What the walk read of one file: its record and list entry, and its bytes' headers. */
interface FileRead {
  id: string;
  subjectType: string | null;
  subjectId: string | null;
  listed: Rec | undefined;
  contentType: string;
  name: string | undefined;
  size: number;
}

/** Every file whose bytes the walk has, with its record and list entry when it has one. */
export function filesRead(spool: Pick<Spool, 'values'>): FileRead[] {
  const listed = new Map<string, [string, string, Rec]>();
  for (const type of FILE_OBJECT_TYPES) {
    for (const [of, f] of spool.values<[string, Rec]>(`files-${type}`)) {
      listed.set(String(f.id), [type, of, f]);
    }
  }
  return [...spool.values<[string, Rec]>('fileContents')].map(([id, got]) => {
    const l = listed.get(id);
    return {
      id,
      subjectType: l?.[0] ?? null,
      subjectId: l?.[1] ?? null,
      listed: l?.[2],
      contentType: String(got.contentType),
      name: got.name as string | undefined,
      size: Number(got.size),
    };
  });
}

/**
 * Each file's `file` line, then its bytes as `fileChunk` lines, read from the state folder a
 * chunk at a time. A file attached to no record shows no time or owner: its time is made up.
 */
export function fileLines(
  spool: Pick<Spool, 'values' | 'dir'>,
  files: readonly FileRead[],
  emit: (line: Line) => void,
  orderTime: () => string,
  skip: Skip,
): void {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  for (const f of files) {
    if (f.size === 0) {
      skip('emptyFile');
      continue;
    }
    emit({
      type: 'file',
      id: f.id,
      name: f.listed?.name ?? f.name ?? f.id,
      content_type: f.contentType,
      size: f.size,
      chunk_count: Math.ceil(f.size / CHUNK_BYTES),
      status: 'ready',
      subject_type: f.subjectType,
      subject_id: f.subjectId,
      memo: null,
      owner_id: refId(f.listed?.owner),
      created_at: f.listed?.createdAt ?? orderTime(),
    });
    const fd = openSync(fileBytesPath(spool, f.id), 'r');
    try {
      for (let seq = 0; ; seq++) {
        let n = 0;
        while (n < CHUNK_BYTES) {
          const got = readSync(fd, buffer, n, CHUNK_BYTES - n, null);
          if (got === 0) break;
          n += got;
        }
        if (n === 0) break;
        emit({
          type: 'fileChunk',
          file_id: f.id,
          seq,
          data: buffer.subarray(0, n).toString('base64'),
        });
        if (n < CHUNK_BYTES) break;
      }
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Sent e-mails as `email` lines. Their read does not show the files they carried, who sent
 * them or their idempotency keys: the copy's have none.
 */
export function emailLines(spool: Pick<Spool, 'values'>, emit: (line: Line) => void): void {
  for (const [, e] of spool.values<[string, Rec]>('emails')) {
    emit({
      type: 'email',
      id: e.id,
      status: e.status,
      subject: e.subject,
      from_address: e.from,
      to_list: e.to,
      cc_list: e.cc,
      bcc_list: e.bcc,
      html_body: e.htmlBody,
      text_body: e.text,
      attachment_ids: [],
      message_id: e.messageId,
      sender_id: null,
      idempotency_key: null,
      request_hash: '',
      created_at: e.date,
    });
  }
}

/**
 * The recordings the walk read, each with its audio: its record's audio file that no other
 * recording holds, the newest uploaded at or before the recording was kept (the recording's
 * read does not name its file). Answers the lines and the ids kept.
 */
export function recordingLines(
  spool: Pick<Spool, 'values'>,
  files: readonly FileRead[],
  skip: Skip,
): Line[] {
  const subjectOf = new Map<string, string>();
  for (const a of spool.values('customObjectActivities')) {
    if (typeof a.recordingId === 'string') subjectOf.set(a.recordingId, String(a.customObjectId));
  }
  const transcripts = new Map<string, Rec>();
  for (const [id, t] of spool.values<[string, Rec]>('recordingTranscripts')) transcripts.set(id, t);
  const objects = new Set(recordIds(spool, 'customObject'));
  const held = new Set<string>();
  const lines: Line[] = [];
  for (const [id, r] of spool.values<[string, Rec]>('recordings')) {
    const subject = subjectOf.get(id);
    const createdAt = String(r.createdAt);
    const audio = files
      .filter(
        (f) =>
          f.subjectType === 'customObject' &&
          f.subjectId === subject &&
          !held.has(f.id) &&
          AUDIO.has(extensionOf(String(f.listed?.name ?? ''))) &&
          String(f.listed?.createdAt ?? '') <= createdAt,
      )
      .sort((a, b) => String(b.listed!.createdAt).localeCompare(String(a.listed!.createdAt)))[0];
    const t = transcripts.get(id);
    if (subject === undefined || !objects.has(subject) || !audio || !t) {
      skip('recordingWithoutItsAudio');
      continue;
    }
    held.add(audio.id);
    lines.push({
      type: 'recording',
      id,
      file_id: audio.id,
      subject_type: 'customObject',
      subject_id: subject,
      title: r.title,
      duration: r.duration,
      source: r.source,
      core_summary: r.coreSummary,
      segments: t.transcriptSegmentList,
      speakers: t.speakerInfoList,
      owner_id: refId(r.owner),
      created_at: createdAt,
    });
  }
  return lines;
}
