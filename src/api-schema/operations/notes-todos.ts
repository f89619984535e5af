/**
 * The todos and notes of the workspace (tag Workspace): list, create, update (complete) and
 * delete todos, list notes with their filters, get one note, list the note types, and write
 * a note (or a reply) on a person, organization, deal, lead, custom object, product, quote
 * or todo.
 */
import { MEMO_TYPE_IDS } from '../../domain/memo-types.ts';
import { AddMemoBody, CreateTodoBody, UpdateTodoBody } from '../bodies/notes-todos.ts';
import {
  CreatedEnvelope,
  Deleted,
  ListEnvelope,
  ObjectEnvelope,
  UpdatedEnvelope,
} from '../envelopes.ts';
import { OneOf } from '../primitives.ts';
import { MemoListRecord, MemoRecord, MemoTypeRecord, TodoRecord } from '../records/notes-todos.ts';
import { type Operation, read, write } from './operation.ts';
import { idFilter, PARAMETERS, page } from './parameters.ts';

/** How an operation's summary names a record type that is not its path segment. */
const NOTE_SUBJECT: Record<string, string> = { people: 'person', 'custom-object': 'custom object' };

/** In the order the OpenAPI document lists them. */
export const NOTE_TODO_OPERATIONS: readonly Operation[] = [
  read('/v2/todo', 'listTodos', 'List todos', 'Workspace', ListEnvelope('todoList', TodoRecord), {
    query: [...page, idFilter('ownerId', 'Only the todos of this user (their 담당자).')],
  }),
  write(
    '/v2/todo',
    'createTodo',
    'Create a todo on a deal, lead, person or organization (fieldList: 내용 required)',
    'Workspace',
    201,
    CreateTodoBody,
    CreatedEnvelope('todo'),
  ),
  write(
    '/v2/todo/{todoId}',
    'updateTodo',
    'Update a todo; 완료 (booleanValue) completes it or opens it again',
    'Workspace',
    200,
    UpdateTodoBody,
    UpdatedEnvelope('todo'),
  ),
  write(
    '/v2/todo/{todoId}/delete',
    'deleteTodo',
    'Delete a todo (and its todoCreate activity)',
    'Workspace',
    200,
    undefined,
    Deleted,
  ),
  read(
    '/v2/memo',
    'listMemos',
    'List notes',
    'Workspace',
    ListEnvelope('memoList', MemoListRecord),
    {
      query: [
        ...page,
        PARAMETERS.startDate,
        PARAMETERS.endDate,
        idFilter('ownerId', 'Only the notes written by this user.'),
        idFilter('dealId', 'Only the notes of this deal.'),
        idFilter('leadId', 'Only the notes of this lead.'),
        idFilter('peopleId', 'Only the notes of this person.'),
        idFilter('organizationId', 'Only the notes of this organization.'),
        idFilter(
          'customObjectId',
          'Only the notes of this custom object (a note’s keys do not name one: it is the filter alone).',
        ),
        {
          name: 'typeId',
          schema: OneOf(MEMO_TYPE_IDS),
          description:
            'Only the notes of this type: an `_id` of `GET /v2/memo/type-list`; another value is 400.',
        },
      ],
    },
  ),
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
  ...(
    [
      ['people', 'peopleId', 'Person'],
      ['organization', 'organizationId', 'Organization'],
      ['deal', 'dealId', 'Deal'],
      ['lead', 'leadId', 'Lead'],
      ['custom-object', 'customObjectId', 'CustomObject'],
      ['product', 'productId', 'Product'],
      ['quote', 'quoteId', 'Quote'],
      ['todo', 'todoId', 'Todo'],
    ] as const
  ).map(([type, param, name]) =>
    write(
      `/v2/${type}/{${param}}/memo`,
      `add${name}Memo`,
      type === 'todo'
        ? 'Write a note on a todo (on its record too, with the todo’s id as todoId); answers the note'
        : `Write a note on a ${NOTE_SUBJECT[type] ?? type} (as its memo body key does); answers the note`,
      'Workspace',
      201,
      AddMemoBody,
      ObjectEnvelope('memo', MemoRecord),
    ),
  ),
];
