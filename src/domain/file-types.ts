/**
 * The kinds of file `POST /v2/file` takes (docs/decisions.md, Other resources): images (jpeg, png,
 * gif, webp), pdf, zip, the Office formats old and new, plain text (txt, csv) and audio (mp3, m4a,
 * wav, ogg, webm: a recording's, docs/decisions.md, Recordings). A file is taken
 * when its extension is one of them and its first bytes are what that extension's format starts
 * with (its magic number; text: UTF-8 without NUL bytes).
 */

/** The largest file taken (docs/decisions.md, Other resources). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;

/** The record types a file attaches to, as `objectType` names them (camelCase, as the live API). */
export const FILE_OBJECT_TYPES = [
  'deal',
  'lead',
  'people',
  'organization',
  'product',
  'quote',
  'customObject',
] as const;
export type FileObjectType = (typeof FILE_OBJECT_TYPES)[number];

/** Bytes that a format's files start with, at `offset`. */
interface Magic {
  offset: number;
  bytes: readonly number[];
}

/** One accepted kind: the media type it is served with, and how its content is recognised. */
interface FileKind {
  contentType: string;
  /** Any one of them matches; `text` for plain text. */
  magic: readonly Magic[] | 'text';
}

const ascii = (text: string, offset = 0): Magic => ({
  offset,
  bytes: [...text].map((c) => c.charCodeAt(0)),
});
const ZIP: Magic[] = [
  { offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  // An empty archive: its end record alone.
  { offset: 0, bytes: [0x50, 0x4b, 0x05, 0x06] },
];
// Word 97-2003, Excel 97-2003 and PowerPoint 97-2003 files are compound files (CFB).
const CFB: Magic[] = [{ offset: 0, bytes: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1] }];
const JPEG: FileKind = {
  contentType: 'image/jpeg',
  magic: [{ offset: 0, bytes: [0xff, 0xd8, 0xff] }],
};
const OOXML = 'application/vnd.openxmlformats-officedocument';

/** Every accepted extension (lower case, no dot) and its kind. */
export const FILE_KINDS: Readonly<Record<string, FileKind>> = {
  jpg: JPEG,
  jpeg: JPEG,
  png: {
    contentType: 'image/png',
    magic: [{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }],
  },
  gif: { contentType: 'image/gif', magic: [ascii('GIF87a'), ascii('GIF89a')] },
  webp: { contentType: 'image/webp', magic: [ascii('RIFF'), ascii('WEBP', 8)] },
  pdf: { contentType: 'application/pdf', magic: [ascii('%PDF-')] },
  zip: { contentType: 'application/zip', magic: ZIP },
  doc: { contentType: 'application/msword', magic: CFB },
  docx: { contentType: `${OOXML}.wordprocessingml.document`, magic: ZIP },
  xls: { contentType: 'application/vnd.ms-excel', magic: CFB },
  xlsx: { contentType: `${OOXML}.spreadsheetml.sheet`, magic: ZIP },
  ppt: { contentType: 'application/vnd.ms-powerpoint', magic: CFB },
  pptx: { contentType: `${OOXML}.presentationml.presentation`, magic: ZIP },
  txt: { contentType: 'text/plain; charset=utf-8', magic: 'text' },
  csv: { contentType: 'text/csv; charset=utf-8', magic: 'text' },
  // An ID3 tag, or an MPEG audio frame's sync word (layer III, with or without CRC; MPEG-1 or 2).
  mp3: {
    contentType: 'audio/mpeg',
    magic: [
      ascii('ID3'),
      { offset: 0, bytes: [0xff, 0xfb] },
      { offset: 0, bytes: [0xff, 0xfa] },
      { offset: 0, bytes: [0xff, 0xf3] },
      { offset: 0, bytes: [0xff, 0xf2] },
    ],
  },
  m4a: { contentType: 'audio/mp4', magic: [ascii('ftyp', 4)] },
  wav: { contentType: 'audio/wav', magic: [ascii('RIFF'), ascii('WAVE', 8)] },
  ogg: { contentType: 'audio/ogg', magic: [ascii('OggS')] },
  webm: { contentType: 'audio/webm', magic: [{ offset: 0, bytes: [0x1a, 0x45, 0xdf, 0xa3] }] },
};

/** The accepted extensions, as a message lists them. */
export const FILE_EXTENSIONS = Object.keys(FILE_KINDS);

/** How many leading bytes `contentMatches` needs to decide (less when the file is shorter). */
export const SNIFF_BYTES = 4096;

/** The extension of a file name, lower case without its dot; '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind a file name's extension names, or undefined when it is not accepted. */
export function fileKindOf(name: string): FileKind | undefined {
  return Object.hasOwn(FILE_KINDS, extensionOf(name)) ? FILE_KINDS[extensionOf(name)] : undefined;
}

/**
 * Whether `head` (a file's first bytes, up to `SNIFF_BYTES`; all of it when shorter) is what
 * `kind`'s files start with. `complete` says that `head` is the whole file.
 */
export function contentMatches(kind: FileKind, head: Uint8Array, complete: boolean): boolean {
  if (kind.magic === 'text') return isText(head, complete);
  const magics = kind.magic;
  // WebP's and WAV's two marks are both needed (a RIFF file holds either); the others are choices.
  if (magics.length === 2 && magics[1]!.offset > 0) return magics.every((m) => startsWith(head, m));
  return magics.some((m) => startsWith(head, m));
}

function startsWith(head: Uint8Array, magic: Magic): boolean {
  if (head.length < magic.offset + magic.bytes.length) return false;
  return magic.bytes.every((b, i) => head[magic.offset + i] === b);
}

/**
 * UTF-8 text (a BOM allowed) without NUL bytes. A sequence cut by the end of `head` is fine
 * unless `head` is the whole file.
 */
function isText(head: Uint8Array, complete: boolean): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}
