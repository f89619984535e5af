/**
 * Every statement the service sends to PostgreSQL, while it serves each operation of the
 * OpenAPI document in two workspaces, sends their webhooks, prunes events and revokes a
 * token, reads or writes one workspace's rows at most (docs/deploy.md, Distributing by
 * workspace): what lets a database distributed by `workspace_id` (Citus) run each one on one
 * node. The tables are hash-partitioned by workspace here (`PG_PARTITIONS`), and the check is
 * PostgreSQL's own: each statement is planned again (`explain`) with the values it was sent
 * with, and every partition it reads or changes must be of one workspace's partition number;
 * the rows an `insert` adds are read from its parsed text (the real parser of PostgreSQL,
 * `libpg-query`), and must all carry one `workspace_id`, of that same partition.
 *
 * Besides the workspace tables, statements may read the reference table `token_workspaces`
 * and PostgreSQL's own catalogs; and two reads span workspaces, reading `workspaces` alone
 * and locking nothing: the dispatchers' list of workspaces with due deliveries and pruning's
 * list of workspaces (`READS_OF_EVERY_WORKSPACE`).
 */
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { loadModule, parseSync } from 'libpg-query';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { registerFormats } from '../src/api-schema/formats.ts';
import { OPERATIONS } from '../src/api-schema/operations/index.ts';
import { Dispatcher } from '../src/dispatch/dispatcher.ts';
import { REFERENCE_TABLES, WORKSPACE_TABLES } from '../src/model/tables.ts';
import { revokeToken } from '../src/resources/workspaces/writes.ts';
import { openStore } from '../src/store/database.ts';
import { countDueDeliveries } from '../src/store/outbox/deliveries.ts';
import { pruneEvents } from '../src/store/outbox/prune.ts';
import { partitionByWorkspace } from '../src/store/partitions.ts';
import { prepare, send } from './fuzz/check.ts';
import { type Fixture, makeFixture } from './fuzz/fixture.ts';
import { VALID } from './fuzz/valid.ts';
import { TEST_DIALECT, type TestStore, testApp } from './helpers.ts';
import { databaseUrl, ident, withAdmin } from './postgres.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { type Receiver, startReceiver, waitFor } from './webhook-fixtures.ts';

registerFormats();

/** Partitions of the tables here at least: more if the two workspaces share a partition. */
const PARTITIONS = 16;
/** Valid requests sent per operation. */
const CASES = 3;

/** Tables distributed by workspace (`workspaces` by its `id`). */
const DISTRIBUTED = new Set<string>(['workspaces', ...WORKSPACE_TABLES]);
/** Tables copied whole to every node: read by any statement. */
const REFERENCE = new Set<string>(REFERENCE_TABLES);
/**
 * The reads that span workspaces, by their text: they read one small table by an index
 * (`workspaces`, the webhook streams' leases) and lock nothing (a distributed engine runs
 * them on every node, as reads).
 */
const READS_OF_EVERY_WORKSPACE = [
  // The dispatchers' workspaces with due deliveries (src/store/outbox/due-workspaces.ts).
  /^select "id" from "workspaces" where "deliveries_due_at" <= \$1 order by "deliveries_due_at", "id" limit \$2$/,
  // The streams whose holder's lease ended, to recover (src/store/outbox/streams.ts).
  /^select "workspace_id", "webhook_id" from "webhook_streams" where "holder" is not null and "leased_until" < \$1 order by "leased_until" limit \$2$/,
  // Pruning's list of workspaces (src/store/outbox/prune.ts).
  /^select "id" from "workspaces" order by "id"$/,
];

interface Sent {
  text: string;
  values: unknown[];
}

/** Every statement a `pg` client sends while `recording`. */
const sent: Sent[] = [];
let recording = false;
const originalQuery = pg.Client.prototype.query;

function record(): void {
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    if (recording) {
      const [first, second] = args as [unknown, unknown];
      const config: Partial<pg.QueryConfig> =
        typeof first === 'object' && first !== null ? (first as pg.QueryConfig) : {};
      const text = typeof first === 'string' ? first : config.text;
      const values = Array.isArray(second) ? second : (config.values ?? []);
      if (typeof text === 'string') sent.push({ text, values: values as unknown[] });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}

// biome-ignore lint/suspicious/noExplicitAny: the parser's tree is walked generically
type Node = any;

/** Every node of `tree` (objects and arrays), depth first. */
function* nodes(tree: Node): Generator<Node> {
  if (Array.isArray(tree)) {
    for (const item of tree) yield* nodes(item);
  } else if (tree !== null && typeof tree === 'object') {
    yield tree;
    for (const value of Object.values(tree)) yield* nodes(value);
  }
}

/** The tables a statement names (not its CTEs, nor the aliases a locking clause names). */
function tablesOf(stmt: Node): Set<string> {
  const out = new Set<string>();
  const names = new Set<string>();
  for (const n of nodes(stmt)) {
    if (n.RangeVar?.relname && !n.RangeVar.relname.startsWith('$')) out.add(n.RangeVar.relname);
    if (n.relation?.relname) out.add(n.relation.relname);
    if (n.CommonTableExpr?.ctename) names.add(n.CommonTableExpr.ctename);
    if (n.LockingClause) {
      for (const r of n.LockingClause.lockedRels ?? []) names.add(r.RangeVar.relname);
    }
  }
  for (const name of names) out.delete(name);
  return out;
}

/** The values an expression of an insert's rows takes (undefined: cannot tell). */
function valuesOf(expr: Node, params: unknown[], from: Node[]): unknown[] | undefined {
  if (expr.TypeCast) return valuesOf(expr.TypeCast.arg, params, from);
  if (expr.ParamRef) {
    const value = params[expr.ParamRef.number - 1];
    return Array.isArray(value) ? value : [value];
  }
  if (expr.A_Const) return [expr.A_Const.sval?.sval ?? expr.A_Const.ival?.ival];
  if (expr.ColumnRef) {
    // `v.column` of `unnest(…) as v(columns)`: the array in its place.
    const names = (expr.ColumnRef.fields as Node[]).map((f) => f.String?.sval);
    if (names.length !== 2) return undefined;
    for (const item of from) {
      const fn = item.RangeFunction;
      if (!fn || fn.alias?.aliasname !== names[0]) continue;
      const columns = (fn.alias.colnames as Node[]).map((c) => c.String.sval);
      const args = fn.functions[0].List.items[0].FuncCall.args as Node[];
      const i = columns.indexOf(names[1]);
      return i < 0 ? undefined : valuesOf(args[i], params, from);
    }
  }
  return undefined;
}

/** The `workspace_id`s of the rows an insert adds (undefined: cannot tell). */
function insertedWorkspaces(insert: Node, params: unknown[]): unknown[] | undefined {
  const columns = (insert.cols as Node[]).map((c) => c.ResTarget.name);
  const column = columns.indexOf(insert.relation.relname === 'workspaces' ? 'id' : 'workspace_id');
  if (column < 0) return undefined;
  const select = insert.selectStmt.SelectStmt;
  if (select.valuesLists) {
    const out: unknown[] = [];
    for (const row of select.valuesLists as Node[]) {
      const values = valuesOf(row.List.items[column], params, []);
      if (!values) return undefined;
      out.push(...values);
    }
    return out;
  }
  const from = (select.fromClause ?? []) as Node[];
  const targets = select.targetList as Node[];
  if (targets.length === 1 && targets[0].ResTarget.val.ColumnRef?.fields[0].A_Star) {
    // `select * from unnest(a, b, …)`: the column's array.
    const args = from[0]?.RangeFunction?.functions[0].List.items[0].FuncCall.args as Node[];
    return args ? valuesOf(args[column], params, from) : undefined;
  }
  return valuesOf(targets[column].ResTarget.val, params, from);
}

/** The partitions a plan reads or changes, by table: `[table, partition number]`. */
function partitionsOf(plan: Node): [string, number][] {
  const out: [string, number][] = [];
  for (const n of nodes(plan)) {
    const name = n['Relation Name'];
    if (typeof name !== 'string') continue;
    const m = /^(.+)_p(\d+)$/.exec(name);
    if (m && DISTRIBUTED.has(m[1]!)) out.push([m[1]!, Number(m[2])]);
  }
  return out;
}

describe.runIf(TEST_DIALECT === 'postgres')('statements pin one workspace', () => {
  let store: TestStore;
  let app: FastifyInstance;
  let receiver: Receiver;
  let smtp: SmtpSink;
  let fx: Fixture;
  let admin: pg.Client;

  beforeAll(async () => {
    await loadModule();
    // Before any connection: each connection binds the `query` it has when it connects.
    record();
    store = await plainStore();
    receiver = await startReceiver();
    smtp = await startSmtpSink();
    app = await testApp(
      store,
      { webhookAllowPrivate: true, smtpUrl: smtp.url },
      { webhookVerifyTimeoutMs: 2000 },
    );
    fx = await makeFixture(store, app, receiver.url);
    admin = new pg.Client({ connectionString: store.url });
    await admin.connect();
    // As many partitions as put the two workspaces in different ones (or a statement that
    // read both would read one partition, and pass).
    let partitions = PARTITIONS;
    while (await samePartition(fx.m.ws.workspaceId, fx.o.ws.workspaceId, partitions)) {
      partitions += 1;
    }
    await partitionByWorkspace(store.db, partitions);
  }, 300_000);
  /**
   * A migrated database of its own with plain tables, whatever the run's template is
   * (`SALESCRM_TEST_PG_PARTITIONS`): the partitions are chosen here.
   */
  async function plainStore(): Promise<TestStore> {
    const { serverUrl, prefix } = inject('postgres');
    const name = `${prefix}${process.pid}_pinned`;
    await withAdmin(serverUrl, (c) => c.query(`create database ${ident(name)}`));
    const url = databaseUrl(serverUrl, name);
    const made = openStore(url);
    await made.migrate();
    return Object.assign(made, {
      path: '',
      url,
      async dispose() {
        await made.close();
        await withAdmin(serverUrl, (c) =>
          c.query(`drop database if exists ${ident(name)} with (force)`),
        );
      },
    });
  }

  /** Whether two workspace ids fall in one partition of `partitions` (a scratch table's). */
  async function samePartition(a: string, b: string, partitions: number): Promise<boolean> {
    await admin.query('drop table if exists pg_temp.probe');
    await admin.query('create temp table probe (id text collate "C") partition by hash (id)');
    for (let i = 0; i < partitions; i++) {
      await admin.query(
        `create temp table probe_${i} partition of probe for values with (modulus ${partitions}, remainder ${i})`,
      );
    }
    await admin.query('insert into probe values ($1), ($2)', [a, b]);
    const { rows } = await admin.query('select count(distinct tableoid)::int as n from probe');
    return rows[0].n === 1;
  }

  afterAll(async () => {
    pg.Client.prototype.query = originalQuery;
    await admin?.end();
    await app?.close();
    await receiver?.close();
    await smtp?.close();
    await store?.dispose();
  });

  /** The partition number of a workspace. */
  async function partitionOf(workspaceId: unknown): Promise<number> {
    const { rows } = await admin.query<{ name: string }>(
      'select tableoid::regclass::text as name from workspaces where id = $1',
      [workspaceId],
    );
    return Number(/_p(\d+)$/.exec(rows[0]?.name ?? '')?.[1] ?? -1);
  }

  it('holds for every operation of the document, the dispatcher, pruning and revoking', async () => {
    // The two workspaces are in different partitions, or a statement reading both would
    // read one partition and pass.
    expect(await partitionOf(fx.m.ws.workspaceId)).not.toBe(await partitionOf(fx.o.ws.workspaceId));
    recording = true;
    try {
      for (const op of OPERATIONS) {
        const generator = VALID[op.operationId];
        if (!generator) throw new Error(`no generator of valid requests for ${op.operationId}`);
        for (const req of fc.sample(generator(fx), { numRuns: CASES, seed: 20261128 })) {
          for (const side of [fx.m, fx.o]) {
            await send(app, side.ws.token, await prepare(fx, req));
          }
        }
      }
      const dispatcher = new Dispatcher(store, {
        retryDelays: [0.05],
        timeoutMs: 2000,
        concurrency: 8,
        perWebhook: 2,
        pollMs: 20,
        allowPrivate: true,
      });
      dispatcher.start();
      await waitFor(
        async () => (await countDueDeliveries(store.db, new Date().toISOString())) === 0,
        120_000,
        () => 'deliveries still due after 120 s',
      );
      await dispatcher.stop();
      await pruneEvents(store, 1, Date.now() + 3 * 86_400_000);
      expect(await revokeToken(store, fx.o.ws.tokenId)).toBe(true);
    } finally {
      recording = false;
      pg.Client.prototype.query = originalQuery;
    }

    const failures = new Set<string>();
    const spanning = new Set<string>();
    let checked = 0;
    for (const { text, values } of sent) {
      const parsed = parseSync(text) as { stmts: Node[] };
      for (const entry of parsed.stmts) {
        const stmt = entry.stmt;
        const statement = text
          .slice(
            entry.stmt_location ?? 0,
            (entry.stmt_location ?? 0) + (entry.stmt_len || text.length),
          )
          .trim();
        const kind = Object.keys(stmt)[0]!;
        if (!['SelectStmt', 'InsertStmt', 'UpdateStmt', 'DeleteStmt'].includes(kind)) continue;
        const tables = tablesOf(stmt);
        const distributed = [...tables].filter((t) => DISTRIBUTED.has(t));
        const unknown = [...tables].filter(
          (t) => !DISTRIBUTED.has(t) && !REFERENCE.has(t) && !t.startsWith('pg_'),
        );
        if (unknown.length > 0) failures.add(`names tables of no kind (${unknown}): ${statement}`);
        if (distributed.length === 0) continue;
        if (READS_OF_EVERY_WORKSPACE.some((r) => r.test(statement))) {
          spanning.add(statement);
          continue;
        }
        checked += 1;
        const numbers = new Set<number>();
        // The rows each insert of the statement (a CTE's too) adds.
        for (const n of nodes(stmt)) {
          if (!n.InsertStmt || !DISTRIBUTED.has(n.InsertStmt.relation.relname)) continue;
          const workspaces = insertedWorkspaces(n.InsertStmt, values);
          const distinct = new Set(workspaces);
          if (!workspaces || distinct.size !== 1) {
            failures.add(
              `inserts rows of ${workspaces ? distinct.size : 'unknown'} workspaces: ${statement}`,
            );
          } else {
            numbers.add(await partitionOf([...distinct][0]));
          }
        }
        const uses = statement.includes('$') ? values : [];
        const explained = await admin.query(`explain (format json, costs off) ${statement}`, uses);
        const partitions = partitionsOf(explained.rows[0]['QUERY PLAN']);
        for (const [, n] of partitions) numbers.add(n);
        const perTable = new Map<string, Set<number>>();
        for (const [table, n] of partitions)
          perTable.set(table, (perTable.get(table) ?? new Set()).add(n));
        if (numbers.size > 1 || [...perTable.values()].some((s) => s.size > 1)) {
          failures.add(`reaches partitions ${[...numbers]}: ${statement}`);
        }
      }
    }
    expect([...failures]).toEqual([]);
    // The check saw the service's work, and the reads that span workspaces are those named.
    console.log(`${checked} statements checked; spanning: ${[...spanning].join(' | ')}`);
    expect(checked).toBeGreaterThan(1000);
    expect(spanning.size).toBeGreaterThan(0);
  }, 600_000);
});
