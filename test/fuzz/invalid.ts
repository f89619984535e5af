/**
 * Invalid requests of an operation, made from its valid ones and its place in the document:
 * path ids of the other workspace, of no record, or malformed; query values their parameter
 * refuses; bodies with keys retyped, dropped or added, huge or odd strings, the other
 * workspace's ids; and broken transport (media type, malformed or oversized JSON). Each case
 * says what it must get: exact statuses, or `maybe` when the change may still be valid (an
 * unknown key is ignored by design), in which case a success must match the document too.
 */
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import type { Operation } from '../../src/api-schema/operations/operation.ts';
import { pathParameters } from '../../src/api-schema/operations/operation.ts';
import type { FormPart } from '../multipart.ts';
import type { Fixture, Kind } from './fixture.ts';
import type { Req } from './valid.ts';

/** An invalid request and what it must get. */
export interface Bad {
  req: Req;
  /** The statuses it must get, or `maybe`: the success or a refusal. */
  expect: number[] | 'maybe';
  why: string;
}

/** The record type each id path parameter names. */
const PATH_KINDS: Record<string, Kind> = {
  peopleId: 'people',
  organizationId: 'organization',
  dealId: 'deal',
  leadId: 'lead',
  memoId: 'memo',
  todoId: 'todo',
  productId: 'product',
  quoteId: 'quote',
  webFormId: 'webForm',
  webhookId: 'webhook',
  deliveryId: 'delivery',
  fieldId: 'field',
  customObjectId: 'customObject',
  sequenceId: 'sequence',
  enrollId: 'enrollment',
  fileId: 'file',
  emailId: 'email',
  recordingId: 'recording',
};

/**
 * What a path id that names no record of the workspace gets, where it is not a 404: the
 * live API's sequence reads answer `null` or `[]` (a success, checked against the document
 * and for the other workspace's data), and an unknown enrollment's timeline is a 400.
 */
const UNKNOWN_PATH_ID: Record<string, Bad['expect']> = {
  getSequence: 'maybe',
  listSequenceSteps: 'maybe',
  listSequenceEnrollments: 'maybe',
  listSequenceEnrollmentTimeline: [400],
  // As the live API: an unknown e-mail is a 400.
  getEmail: [400],
};
/** Path parameters that take a name from a list, not an id. */
const PATH_NAMES = new Set(['type', 'targetType', 'toTargetType', 'asset']);

/** The record type a path id names: `targetId` names one of the path's `targetType`. */
function pathKind(op: Operation, req: Req, param: string): Kind | undefined {
  if (param !== 'targetId') return PATH_KINDS[param];
  const type = req.path.split('/')[op.path.split('/').indexOf('{targetType}')];
  return (type === 'custom-object' ? 'customObject' : type) as Kind;
}

/** Path segments that name no record (or cannot be an id at all). */
const ODD_SEGMENTS = [
  'zz0000000000notthere',
  'a'.repeat(65),
  'x'.repeat(600),
  encodeURIComponent('고객'),
  encodeURIComponent('😀'),
  '%FF',
  '%C3%28',
  '%ED%A0%80',
  '%00',
  'a%20b',
  'a.b',
  '%2F',
  'null',
  'undefined',
  '0',
  '-1',
  'NaN',
  'PEOPLE',
  encodeURIComponent("' or 1=1 --"),
  encodeURIComponent('{"$ne":null}'),
];

/** Values each query parameter refuses with a 400, by parameter name. */
const BAD_QUERY: Record<string, string[]> = {
  cursor: ['garbage', 'eyJ9', '%FF', 'x'.repeat(1001), '%00', 'a'.repeat(9000)],
  limit: ['0', '-1', '1.5', 'abc', 'NaN', 'Infinity', '--1', '%00', '１'],
  types: ['foo', 'email,,call', 'EMAIL', ',', 'email,'],
  startDate: ['yesterday', '2024-13-01', '2024-02-30', '2024/01/01', '%00'],
  endDate: ['tomorrow', '2024-00-10', '2023-02-29', 'T09:00:00', '%00'],
  fieldList: ['없는필드', ',', '이름,없는필드', '%00'],
  pipelineName: ['없는 파이프라인', '%00'],
  pipelineStageName: ['없는 단계', '%00'],
  objectType: ['nope', 'People', 'product', '%00'],
  status: ['done', 'PENDING', '%00'],
  customObjectDefinitionName: ['%00', 'x'.repeat(3000)],
  typeId: ['memo-type-lunch', 'MEMO-TYPE-CALL', '일반', '%00'],
};
/** Where an operation refuses other values of a parameter than `BAD_QUERY` says. */
const BAD_QUERY_OF: Record<string, Record<string, string[]>> = {
  // Files attach to products too; a file list needs a record type of files.
  listFiles: { objectType: ['nope', 'People', 'custom-object', 'memo', '%00'] },
};
/** Record-id filters: malformed is a 400, another workspace's id answers nothing of it. */
const ID_FILTERS = new Set([
  'peopleId',
  'organizationId',
  'dealId',
  'leadId',
  'ownerId',
  'objectId',
  'customObjectId',
  'customObjectDefinitionId',
]);
const FILTER_KINDS: Record<string, Kind> = {
  objectId: 'deal',
  peopleId: 'people',
  organizationId: 'organization',
  dealId: 'deal',
  leadId: 'lead',
  ownerId: 'user',
  customObjectId: 'customObject',
  customObjectDefinitionId: 'customObjectDefinition',
};

/** Odd JSON values: wrong types, edges, huge and odd strings. */
const ODD_VALUES: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    true,
    false,
    '',
    ' ',
    '\t\n',
    '\ud800',
    '\udfff\ud800',
    'a\u0000b',
    '\u202e뒤집힌',
    '\ufeff',
    '한글',
    '2024-02-30',
    [],
    {},
    [null],
    [[]],
    { id: 1 },
    { $ref: '#' },
  ),
  fc.integer({ min: 65, max: 300_000 }).map((n) => 'x'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.array(fc.constant('x'), { minLength: 501, maxLength: 700 }),
);

type Path = (string | number)[];

/** Every container (object or array) of a JSON value, by path. */
function containers(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  if (value && typeof value === 'object') {
    out.push(path);
    for (const [k, v] of Object.entries(value)) {
      containers(v, [...path, Array.isArray(value) ? Number(k) : k], out);
    }
  }
  return out;
}
function at(value: unknown, path: Path): unknown {
  let v = value;
  for (const p of path) v = (v as Record<string | number, unknown>)[p];
  return v;
}

/** A copy of `body` changed at one place: a value replaced or dropped, or a key added. */
function mutateBody(body: unknown, pick: number, action: number, value: unknown, key: string) {
  const copy = structuredClone(body);
  const places = containers(copy);
  if (places.length === 0) return { body: value, what: 'body replaced' };
  const place = places[pick % places.length]!;
  const target = at(copy, place) as Record<string | number, unknown>;
  const keys = Object.keys(target);
  const where = place.join('.') || '(root)';
  if (keys.length === 0 || action === 0) {
    if (Array.isArray(target)) target.push(value);
    else target[key] = value;
    return { body: copy, what: `added ${key} at ${where}` };
  }
  const k = keys[pick % keys.length]!;
  const index = Array.isArray(target) ? Number(k) : k;
  if (action === 1) {
    if (Array.isArray(target)) target.splice(Number(k), 1);
    else delete target[k];
    return { body: copy, what: `dropped ${where}.${k}` };
  }
  target[index] = value;
  return { body: copy, what: `replaced ${where}.${k}` };
}

/** Every string of `body` that is an id of `m`, replaced by the matching id of `o`. */
function foreignIds(fx: Fixture, body: unknown): { body: unknown; changed: boolean } {
  const map = new Map<string, string>();
  for (const [kind, ids] of Object.entries(fx.m.ids) as [Kind, string[]][]) {
    const theirs = fx.o.ids[kind];
    for (const [i, id] of ids.entries()) map.set(id, theirs[i % theirs.length]!);
  }
  let changed = false;
  const swap = (v: unknown): unknown => {
    const token = typeof v === 'string' && /^§new:(\w+)§$/.exec(v);
    if (token) {
      changed = true;
      return fx.o.ids[token[1] as Kind][0];
    }
    if (typeof v === 'string' && map.has(v)) {
      changed = true;
      return map.get(v);
    }
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    return v;
  };
  return { body: swap(body), changed };
}

function withSegment(op: Operation, req: Req, param: string, segment: string): Req {
  const names = op.path.split('/');
  const parts = req.path.split('/');
  parts[names.indexOf(`{${param}}`)] = segment;
  return { ...req, path: parts.join('/') };
}

/**
 * Operations whose valid bodies always hold ids of `m`, and what the other workspace's ids
 * there must get: a refusal, or (reads and searches) an answer without those records.
 */
const BODY_IDS: Record<string, Bad['expect']> = {
  mergePeople: [400, 404],
  mergeOrganization: [400, 404],
  mergeDeal: [400, 404],
  mergeLead: [400, 404],
  createDeal: [400, 404],
  updateDeal: 'maybe',
  createQuote: [400, 404],
  createTodo: [400, 404],
  batchReadObjects: 'maybe',
  batchUpdateObjects: [400, 404],
  batchCreateObjects: 'maybe',
  sendEmail: 'maybe',
  enrollInSequence: [404],
  createCustomObject: [400, 404],
  updateCustomObject: 'maybe',
  createRecording: [400, 404],
};

/**
 * The invalid requests of `op`, from its valid ones. Throws when the operation has a path or
 * query parameter this file does not know, so a new parameter gets its invalid values here.
 */
export function invalidRequests(
  op: Operation,
  fx: Fixture,
  valid: fc.Arbitrary<Req>,
): fc.Arbitrary<Bad> {
  const kinds: fc.Arbitrary<Bad>[] = [];
  const params = pathParameters(op.path);
  for (const p of params) {
    if (!PATH_KINDS[p] && !PATH_NAMES.has(p) && p !== 'targetId')
      throw new Error(`${op.operationId}: no invalid values for path parameter '${p}'`);
  }
  for (const q of op.query) {
    if (!BAD_QUERY[q.name] && !ID_FILTERS.has(q.name)) {
      throw new Error(`${op.operationId}: no invalid values for query parameter '${q.name}'`);
    }
  }
  const refusals = [400, 404];

  if (params.length > 0) {
    kinds.push(
      fc
        .tuple(valid, fc.constantFrom(...params), fc.constantFrom(...ODD_SEGMENTS))
        .map(([req, p, seg]) => ({
          req: withSegment(op, req, p, seg),
          expect: UNKNOWN_PATH_ID[op.operationId] === 'maybe' ? 'maybe' : refusals,
          why: `path ${p} = ${seg.slice(0, 40)}`,
        })),
    );
    const idParams = params.filter((p) => PATH_KINDS[p] || p === 'targetId');
    if (idParams.length > 0) {
      kinds.push(
        fc.tuple(valid, fc.constantFrom(...idParams), fc.nat()).map(([req, p, n]) => {
          const theirs = fx.o.ids[pathKind(op, req, p)!];
          return {
            req: withSegment(op, req, p, theirs[n % theirs.length]!),
            expect: UNKNOWN_PATH_ID[op.operationId] ?? [404],
            why: `path ${p}: the other workspace's`,
          };
        }),
        fc.tuple(valid, fc.constantFrom(...idParams), fc.nat()).map(([req, p, n]) => {
          const otherKinds = (Object.keys(fx.m.ids) as Kind[]).filter(
            (k) => k !== pathKind(op, req, p),
          );
          const ids = fx.m.ids[otherKinds[n % otherKinds.length]!];
          return {
            req: withSegment(op, req, p, ids[n % ids.length]!),
            expect: UNKNOWN_PATH_ID[op.operationId] ?? [404],
            why: `path ${p}: an id of another record type`,
          };
        }),
      );
    }
  }

  const queryNames = op.query.map((q) => q.name);
  if (queryNames.length > 0) {
    kinds.push(
      fc.tuple(valid, fc.constantFrom(...queryNames), fc.nat()).map(([req, name, n]) => {
        const rest = (req.query ?? []).filter(([k]) => k !== name);
        if (ID_FILTERS.has(name)) {
          const theirs = fx.o.ids[FILTER_KINDS[name]!];
          const bad = n % 2 === 0 ? 'x'.repeat(65) : theirs[n % theirs.length]!;
          return {
            req: { ...req, query: [...rest, [name, bad]] },
            expect: n % 2 === 0 ? [400] : ('maybe' as const),
            why: `query ${name}: ${n % 2 === 0 ? 'too long' : "the other workspace's id"}`,
          };
        }
        const values = BAD_QUERY_OF[op.operationId]?.[name] ?? BAD_QUERY[name]!;
        const bad = values[n % values.length]!;
        return {
          req: { ...req, query: [...rest, [name, bad]] },
          expect: [400],
          why: `query ${name} = ${bad.slice(0, 30)}`,
        };
      }),
    );
    if (queryNames.includes('cursor')) {
      kinds.push(
        fc.tuple(valid, fc.nat()).map(([req, n]) => {
          // Another endpoint's cursor, or this endpoint's cursor of the other workspace.
          const cursors = fx.cursors.filter((c) => c.path !== req.path || c.of === 'o');
          const c = cursors[n % cursors.length]!;
          return {
            req: {
              ...req,
              query: [...(req.query ?? []).filter(([k]) => k !== 'cursor'), ['cursor', c.cursor]],
            },
            expect: [400],
            why: `cursor of ${c.path} in workspace ${c.of}`,
          };
        }),
      );
    }
    if (queryNames.includes('startDate') && queryNames.includes('endDate')) {
      kinds.push(
        valid.map((req) => ({
          req: {
            ...req,
            query: [
              ...(req.query ?? []).filter(([k]) => k !== 'startDate' && k !== 'endDate'),
              ['startDate', '2024-05-01'],
              ['endDate', '2024-04-01'],
            ],
          },
          expect: [400],
          why: 'startDate after endDate',
        })),
      );
    }
  }

  // Unknown or repeated query parameters: ignored (and named in X-Ignored-Parameters) or refused.
  kinds.push(
    fc
      .tuple(
        valid,
        fc.constantFrom('foo', '한글', 'limit', 'cursor', '__proto__', 'constructor', ''),
        fc.string({ maxLength: 20 }),
      )
      .map(([req, name, value]) => ({
        req: { ...req, query: [...(req.query ?? []), [name, value]] as [string, string][] },
        expect: 'maybe' as const,
        why: `query ${name} added`,
      })),
  );

  if (op.body) {
    const schema = op.body;
    kinds.push(
      fc
        .tuple(
          valid,
          fc.nat(),
          fc.nat(2),
          ODD_VALUES,
          fc.constantFrom('extra', 'name', 'id', '__proto__', '이름', 'fieldList', ''),
        )
        .map(([req, n, action, value, key]) => {
          const { body, what } = mutateBody(req.body, n, action, value, key);
          const nul = JSON.stringify(body)?.includes('\\u0000');
          const refused = nul || !Value.Check(schema, withoutTokens(body));
          return {
            req: { ...req, body },
            expect: refused ? [400] : ('maybe' as const),
            why: `body ${what}`,
          };
        }),
      fc
        .tuple(valid, fc.constantFrom<unknown>([], 'text', 1, true, [{}], [null]))
        .map(([req, body]) => ({
          req: { ...req, body },
          expect: [400],
          why: `body is ${JSON.stringify(body)}`,
        })),
    );
    if (op.operationId in BODY_IDS) {
      kinds.push(
        valid.map((req): Bad => {
          const swapped = foreignIds(fx, req.body);
          return {
            req: { ...req, body: swapped.body },
            expect: swapped.changed ? BODY_IDS[op.operationId]! : 'maybe',
            why: 'body ids of the other workspace',
          };
        }),
      );
    }
  }

  if (op.form) {
    kinds.push(
      fc
        .tuple(valid, fc.nat())
        .map(([req, n]) => formMutation(fx, req.form ?? [], n))
        .map(
          ([form, expect, why]): Bad => ({
            req: { method: 'POST', path: '/v2/file', form },
            expect,
            why: `form: ${why}`,
          }),
        ),
    );
  }

  if (op.method === 'POST') {
    kinds.push(
      fc
        .tuple(
          valid,
          fc.constantFrom<{
            contentType: string;
            payload: string | Buffer;
            expect: Bad['expect'];
            why: string;
          }>(
            { contentType: 'text/plain', payload: '{}', expect: [415], why: 'text/plain' },
            {
              contentType: 'application/x-www-form-urlencoded',
              payload: 'a=1',
              expect: [415],
              why: 'a form',
            },
            {
              contentType: 'application/json',
              payload: '{"name":',
              expect: [400],
              why: 'malformed JSON',
            },
            {
              contentType: 'application/json',
              payload: '{"a":1}{"b":2}',
              expect: [400],
              why: 'two JSON values',
            },
            {
              contentType: 'application/json',
              payload: "{'a':1}",
              expect: [400],
              why: 'single quotes',
            },
            {
              contentType: 'application/json',
              payload: `{"name":"${'x'.repeat(1024 * 1024 + 10)}"}`,
              expect: [413],
              why: 'over 1 MiB',
            },
            {
              contentType: 'application/json',
              payload: Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
              expect: 'maybe' as const,
              why: 'invalid UTF-8',
            },
            {
              contentType: 'application/json; charset=utf-16',
              payload: '{}',
              expect: 'maybe' as const,
              why: 'UTF-16 named',
            },
          ),
        )
        .map(
          ([req, t]): Bad => ({
            req: { ...req, payload: t.payload, contentType: t.contentType },
            expect: t.expect,
            why: t.why,
          }),
        ),
    );
  }
  return fc.oneof(...kinds);
}

/** An upload's form made wrong in one of several ways, with what it must get. */
function formMutation(fx: Fixture, form: FormPart[], n: number): [FormPart[], number[], string] {
  const file = form.find((p) => 'filename' in p) as Extract<FormPart, { filename: string }>;
  const fields = form.filter((p) => p !== file);
  const stem = file.filename.slice(0, file.filename.lastIndexOf('.'));
  const cases: (() => [FormPart[], number[], string])[] = [
    () => [fields, [400], 'no file'],
    () => [[...fields, { ...file, data: new Uint8Array(0) }], [400], 'an empty file'],
    () => [[...fields, file, { ...file, filename: `b${file.filename}` }], [400], 'two files'],
    () => [[...fields, { ...file, filename: `${stem}.exe` }], [415], 'an .exe'],
    () => [[...fields, { ...file, filename: stem }], [415], 'no extension'],
    () => [
      [...fields, { ...file, filename: `${stem}.pdf`, data: new Uint8Array([0x89, 0x50, 0, 0]) }],
      [415],
      'a pdf that is not one',
    ],
    () => [[{ name: 'objectType', value: 'deal' }, file], [400], 'objectType without objectId'],
    () => [
      [{ name: 'objectId', value: fx.m.seed.deal }, file],
      [400],
      'objectId without objectType',
    ],
    () => [
      [{ name: 'objectType', value: 'deal' }, { name: 'objectId', value: fx.o.seed.deal }, file],
      [404],
      "the other workspace's deal",
    ],
    () => [
      [{ name: 'objectType', value: 'people' }, { name: 'objectId', value: fx.m.seed.deal }, file],
      [404],
      'a deal id as people',
    ],
    () => [
      [
        { name: 'objectType', value: 'custom-object' },
        { name: 'objectId', value: fx.m.seed.deal },
        file,
      ],
      [400],
      'objectType custom-object',
    ],
    () => [[{ name: 'objectId', value: 'x'.repeat(65) }, file], [400], 'a malformed objectId'],
    () => [[{ name: 'memo', value: 'a\u0000b' }, file], [400], 'memo with U+0000'],
  ];
  return cases[n % cases.length]!();
}

/** The body with the fixture's tokens replaced by a well-formed id, to check it against the schema. */
function withoutTokens(body: unknown): unknown {
  const json = JSON.stringify(body);
  return json === undefined ? undefined : JSON.parse(json.replace(/§[^§"]*§/g, 'token0000'));
}
