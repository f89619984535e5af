/**
 * Files (tag Files, docs/decisions.md, Other resources): upload (multipart), a record's files, a
 * file's bytes (ours: the live API serves them elsewhere) and delete.
 */
import { Type } from '@sinclair/typebox';
import { FILE_OBJECT_TYPES } from '../../domain/file-types.ts';
import { Deleted } from '../envelopes.ts';
import { OneOf } from '../primitives.ts';
import { FileListItem, UploadedFile, UploadFileForm } from '../records/files.ts';
import { type Operation, read, write } from './operation.ts';
import { idFilter, PARAMETERS } from './parameters.ts';

const TAG = 'Files';

/** `{success, data: {id, name}}`: the upload's answer, its keys right under `data`. */
const UploadAnswer = Type.Object(
  { success: Type.Literal(true), data: UploadedFile },
  { additionalProperties: false },
);

/** `{success, data: {fileList, nextCursor?}}`: no `nextCursor` key on the last page. */
const FileListAnswer = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        fileList: Type.Array(FileListItem),
        nextCursor: Type.Optional(Type.String({ description: 'Absent on the last page' })),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/** In the order the OpenAPI document lists them. */
export const FILE_OPERATIONS: readonly Operation[] = [
  {
    ...write(
      '/v2/file',
      'uploadFile',
      'Upload a file (multipart/form-data), attached to a record or not; kept in the database',
      TAG,
      201,
      undefined,
      UploadAnswer,
    ),
    form: UploadFileForm,
    notFound: true,
  },
  read(
    '/v2/file',
    'listFiles',
    'List the files of a record, oldest first (50 a page)',
    TAG,
    FileListAnswer,
    {
      query: [
        {
          name: 'objectType',
          schema: OneOf(FILE_OBJECT_TYPES),
          description: `The record type (${FILE_OBJECT_TYPES.join(', ')}).`,
          required: true,
        },
        {
          ...idFilter(
            'objectId',
            'The record whose files are listed (404 when not in the workspace).',
          ),
          required: true,
        },
        PARAMETERS.cursor,
        PARAMETERS.limit,
      ],
      notFound: true,
    },
  ),
  {
    ...read(
      '/v2/file/{fileId}/content',
      'downloadFile',
      "Download a file's bytes, with its media type, length and name (Content-Disposition, UTF-8 names per RFC 5987)",
      TAG,
      Type.Unknown(),
    ),
    response: undefined,
    contentType: 'application/octet-stream',
    notFound: true,
  },
  {
    ...write(
      '/v2/file/{fileId}/delete',
      'deleteFile',
      'Delete a file and its bytes (409 for the audio of a recording: delete the recording)',
      TAG,
      200,
      undefined,
      Deleted,
    ),
    conflict: true,
  },
];
