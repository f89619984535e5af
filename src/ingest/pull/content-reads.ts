/**
 * The reads of a pull after the people, organizations, deals and leads: custom objects (their
 * fields, records, activities, history and notes), the files of every record and the bytes
 * of each, sent e-mails and recordings with their transcripts. A source that does not serve
 * one of them (a `404` or `405` of the whole list, or of its first record's read) is named
 * in the summary, and the rest goes on.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ATTACHMENT_TYPE } from '../../domain/custom-fields.ts';
import { FILE_OBJECT_TYPES, type FileObjectType } from '../../domain/file-types.ts';
import { download } from './download.ts';
import type { Rec } from './refs.ts';
import type { Spool } from './spool.ts';
import type { Read } from './walk.ts';

/** The reads whose records are each type's records, as lines `record` or `[of, record]`. */
const RECORD_READS: Record<FileObjectType, { reads: string[]; fields: string }> = {
  people: { reads: ['people'], fields: 'fields-people' },
  organization: { reads: ['organizations'], fields: 'fields-organization' },
  deal: { reads: ['deals'], fields: 'fields-deal' },
  lead: { reads: ['leads'], fields: 'fields-lead' },
  product: { reads: ['products'], fields: 'fields-product' },
  quote: { reads: ['dealQuotes', 'leadQuotes'], fields: 'fields-quote' },
  customObject: { reads: ['customObjects'], fields: 'fields-custom-object' },
};

/** The records of a read: its lines, or the records of its `[of, record]` lines. */
function* recordsOf(spool: Pick<Spool, 'values'>, name: string): Generator<Rec> {
  for (const v of spool.values<Rec | [string, Rec]>(name)) yield Array.isArray(v) ? v[1] : v;
}

/** The ids of every record of `type` the walk has read, each once. */
export function recordIds(spool: Pick<Spool, 'values'>, type: FileObjectType): string[] {
  const ids = new Set<string>();
  for (const name of RECORD_READS[type].reads) {
    for (const r of recordsOf(spool, name)) ids.add(String(r.id));
  }
  return [...ids];
}

/** The ids of the files a record's attachment fields name (`[{id, name}]`). */
function attachedFileIds(spool: Spool, into: Set<string>): void {
  for (const type of FILE_OBJECT_TYPES) {
    const { reads, fields } = RECORD_READS[type];
    const names = [...spool.values(fields)]
      .filter((f) => f.type === ATTACHMENT_TYPE)
      .map((f) => String(f.name));
    if (names.length === 0) continue;
    for (const name of reads) {
      for (const r of recordsOf(spool, name)) {
        for (const key of names) {
          const value = r[key];
          if (Array.isArray(value)) for (const f of value as Rec[]) into.add(String(f.id));
        }
      }
    }
  }
}

/** The ids of every file the walk has seen: the records' files and the attachment values. */
export function fileIds(spool: Spool): string[] {
  const ids = new Set<string>();
  for (const type of FILE_OBJECT_TYPES) {
    for (const [, f] of spool.values<[string, Rec]>(`files-${type}`)) ids.add(String(f.id));
  }
  attachedFileIds(spool, ids);
  return [...ids];
}

/** Where the bytes of file `id` are kept in the pull's state. */
export function fileBytesPath(spool: Pick<Spool, 'dir'>, id: string): string {
  return join(spool.dir, 'files', id);
}

/** The ids of the e-mails the activities and sequence timelines name, each once. */
function emailIds(spool: Spool): string[] {
  const ids = new Set<string>();
  for (const name of ['dealActivities', 'peopleActivities', 'organizationActivities']) {
    for (const a of spool.values(name))
      if (typeof a.emailMessageId === 'string') ids.add(a.emailMessageId);
  }
  for (const a of spool.values('customObjectActivities'))
    if (typeof a.emailId === 'string') ids.add(a.emailId);
  for (const [, t] of spool.values<[string, Rec]>('timelines'))
    if (typeof t.emailId === 'string') ids.add(t.emailId);
  return [...ids];
}

/**
 * The ids of the recordings the custom objects' activities name (the other activity lists
 * do not name theirs: docs/pull.md).
 */
export function recordingIds(spool: Spool): string[] {
  const ids = new Set<string>();
  for (const a of spool.values('customObjectActivities'))
    if (typeof a.recordingId === 'string') ids.add(a.recordingId);
  return [...ids];
}

const list = (name: string, path: string, key: string, paged = true): Read => ({
  name,
  kind: 'list',
  path,
  key,
  paged,
});

/** Every read of this part of a pull, in the order it runs them. */
export const CONTENT_READS: readonly Read[] = [
  list('fields-custom-object', '/v2/field/custom-object', 'fieldList', false),
  list('customObjects', '/v2/custom-object', 'customObjectList'),
  list('customObjectActivities', '/v2/custom-object/activity', 'customObjectActivityList'),
  list('customObjectHistory', '/v2/custom-object/history', 'customObjectHistoryList'),
  {
    // The notes list does not say which custom object a note is of: each one's notes, of
    // those that have any (`최근 노트 작성일`).
    name: 'customObjectNotes',
    kind: 'each',
    of: (spool) =>
      [...spool.values('customObjects')]
        .filter((o) => o['최근 노트 작성일'] != null)
        .map((o) => String(o.id)),
    path: () => '/v2/memo',
    query: (id) => ({ customObjectId: id }),
    key: 'memoList',
    paged: true,
  },
  ...FILE_OBJECT_TYPES.map(
    (type): Read => ({
      name: `files-${type}`,
      kind: 'each',
      of: (spool) => recordIds(spool, type),
      path: () => '/v2/file',
      query: (id) => ({ objectType: type, objectId: id }),
      key: 'fileList',
      paged: true,
      notServed404: true,
    }),
  ),
  {
    name: 'fileContents',
    kind: 'each',
    of: fileIds,
    path: (id) => `/v2/file/${id}/content`,
    key: 'file',
    paged: false,
    notServed404: true,
    fetch: async (source, id, spool) => {
      mkdirSync(join(spool.dir, 'files'), { recursive: true });
      const got = await download(source, `/v2/file/${id}/content`, fileBytesPath(spool, id));
      return [{ id, ...got }];
    },
  },
  {
    name: 'emails',
    kind: 'each',
    of: emailIds,
    path: (id) => `/v2/email/${id}`,
    key: 'email',
    paged: false,
    notServed404: true,
  },
  {
    name: 'recordings',
    kind: 'each',
    of: recordingIds,
    path: (id) => `/v2/recording/${id}`,
    key: 'recording',
    paged: false,
  },
  {
    name: 'recordingTranscripts',
    kind: 'each',
    of: recordingIds,
    path: (id) => `/v2/recording/${id}/transcript`,
    key: 'recordingTranscript',
    paged: false,
  },
];
