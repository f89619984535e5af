/** Files (docs/decisions.md, Other resources): what an upload answers, and a record's files. */
import { type Static, Type } from '@sinclair/typebox';
import { FILE_EXTENSIONS, FILE_OBJECT_TYPES } from '../../domain/file-types.ts';
import { Id, Nullable, OneOf, Timestamp } from '../primitives.ts';
import { Closed } from './common.ts';

/** The answer of `POST /v2/file`: the new file's id and name. */
export const UploadedFile = Closed(
  { id: Id, name: Type.String({ examples: ['견적서.pdf'] }) },
  'The uploaded file: its id (for `GET /v2/file/{fileId}/content` and e-mail attachments) and name',
);
export type UploadedFile = Static<typeof UploadedFile>;

/** A file of `GET /v2/file`. */
export const FileListItem = Closed(
  {
    id: Id,
    name: Type.String({ examples: ['견적서.pdf'] }),
    createdAt: Timestamp,
    owner: Nullable(Closed({ id: Id, name: Type.String() }, 'The user who uploaded it')),
  },
  'A file attached to a record',
);
export type FileListItem = Static<typeof FileListItem>;

/** The form of `POST /v2/file` (`multipart/form-data`). */
export const UploadFileForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: `The file: one, non-empty, at most 25 MB, of these kinds (by extension, and its content must be that kind): ${FILE_EXTENSIONS.join(', ')}`,
  }),
  objectType: Type.Optional(OneOf(FILE_OBJECT_TYPES)),
  objectId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'The record the file attaches to (with `objectType`: both or neither; for `customObject` the record id, not the definition id)',
    }),
  ),
  memo: Type.Optional(
    Type.String({
      maxLength: 10_000,
      description:
        'A note: added to the record as its note, or kept with a file attached to nothing',
    }),
  ),
});
