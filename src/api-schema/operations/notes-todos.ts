/**
 * The todos and notes of the workspace (tag Workspace): list todos, list notes with their
 * filters, get one note, list the note types.
 */
import { ListEnvelope, ObjectEnvelope } from '../envelopes.ts';
import { MemoRecord, MemoTypeRecord, TodoRecord } from '../records/notes-todos.ts';
import { type Operation, read } from './operation.ts';
import { idFilter, PARAMETERS, page } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const NOTE_TODO_OPERATIONS: readonly Operation[] = [
  read('/v2/todo', 'listTodos', 'List todos', 'Workspace', ListEnvelope('todoList', TodoRecord), {
    query: page,
  }),
  read('/v2/memo', 'listMemos', 'List notes', 'Workspace', ListEnvelope('memoList', MemoRecord), {
    query: [
      ...page,
      PARAMETERS.startDate,
      PARAMETERS.endDate,
      idFilter('ownerId', 'Only the notes written by this user.'),
      idFilter('dealId', 'Only the notes of this deal.'),
      idFilter('leadId', 'Only the notes of this lead.'),
      idFilter('peopleId', 'Only the notes of this person.'),
      idFilter('organizationId', 'Only the notes of this organization.'),
    ],
  }),
  read(
    '/v2/memo/{memoId}',
    'getMemo',
    'Get one note',
    'Workspace',
    ObjectEnvelope('memo', MemoRecord),
    {
      notFound: true,
    },
  ),
  read(
    '/v2/memo/type-list',
    'listMemoTypes',
    'List the note types',
    'Workspace',
    ListEnvelope('typeList', MemoTypeRecord, []),
  ),
];
