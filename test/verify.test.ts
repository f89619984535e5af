/**
 * `salescrm verify`: every record rendered again from the base tables equals its stored
 * JSON; a body changed by hand is reported with its first differing key, and `--repair`
 * rewrites it (with the events of the change) until the workspace verifies clean.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { differenceLine } from '../src/cli/verify-run.ts';
import { SENSITIVE_VALUE } from '../src/domain/events.ts';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { defineCustomField, setCustomValues } from '../src/resources/custom-fields/writes.ts';
import type { RenderedTable } from '../src/store/database.ts';
import {
  type BodyDifference,
  firstDifference,
  verifyWorkspace,
} from '../src/store/read-model/verify.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { get, testApp, testStore } from './helpers.ts';
import { salescrmArgs } from './salescrm-command.ts';

type TestStore = Awaited<ReturnType<typeof testStore>>;

const ROOT = join(import.meta.dirname, '..');

/** Runs the CLI in a child process on `url`. */
function cli(
  url: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...salescrmArgs(), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe('firstDifference', () => {
  const rendered = JSON.stringify({ id: 'a', 이름: '김철수', 팀: [{ id: 't', name: '영업' }] });

  it('names the first rendered key whose value differs, with both values', () => {
    const stored = JSON.stringify({ id: 'a', 이름: '김철', 팀: [] });
    expect(firstDifference(stored, rendered)).toEqual({
      key: '이름',
      stored: '김철',
      rendered: '김철수',
    });
  });

  it('names a key missing from either side', () => {
    expect(firstDifference(JSON.stringify({ id: 'a', 이름: '김철수' }), rendered)).toEqual({
      key: '팀',
      rendered: [{ id: 't', name: '영업' }],
    });
    const extra = JSON.stringify({ ...JSON.parse(rendered), 옛키: 1 });
    expect(firstDifference(extra, rendered)).toEqual({ key: '옛키', stored: 1 });
  });

  it('tells a missing body, text that is not JSON, keys out of order and other bytes', () => {
    expect(firstDifference(null, rendered).key).toBe('(no body)');
    expect(firstDifference('{"id":', rendered)).toEqual({ key: '(not JSON)', stored: '{"id":' });
    expect(firstDifference('[1]', rendered).key).toBe('(not JSON)');
    const reordered = JSON.stringify({ 이름: '김철수', id: 'a', 팀: [{ id: 't', name: '영업' }] });
    expect(firstDifference(reordered, rendered).key).toBe('(key order)');
    expect(firstDifference(JSON.stringify(JSON.parse(rendered), null, 1), rendered).key).toBe(
      '(bytes)',
    );
  });

  it('prints one line: type, id, key and both values, shortened', () => {
    const d: BodyDifference = {
      type: 'people',
      id: 'p1',
      stored: JSON.stringify({ id: 'p1', 이름: 'x'.repeat(200) }),
      rendered: JSON.stringify({ id: 'p1', 이름: '김철수' }),
    };
    const line = differenceLine(d);
    expect(line).toBe(`people p1 이름: stored "${'x'.repeat(58)}… rendered "김철수"`);
  });
});

describe('verify a workspace', { timeout: 120_000 }, () => {
  let store: TestStore;
  let app: FastifyInstance;
  let workspaceId: string;
  let token: string;

  beforeAll(async () => {
    store = await testStore();
    const demo = await createDemoWorkspace(store, { seed: 5, people: 40 });
    workspaceId = demo.workspaceId;
    token = demo.token;
    app = await testApp(store);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await store?.dispose();
  });

  /** Counts of the workspace's rendered rows, by table. */
  async function rowCounts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const table of [
      'people',
      'organizations',
      'deals',
      'leads',
      'products',
      'quotes',
      'custom_objects',
    ]) {
      const row = await store.db
        .selectFrom(table as 'people')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow();
      out[table] = Number(row.n);
    }
    return out;
  }

  async function storedBody(table: RenderedTable, id: string): Promise<string | null> {
    const row = await store.db
      .selectFrom(table as 'people')
      .select('body')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.body === null ? null : row.body.toString();
  }

  /** Sets a record's stored body by hand, as a faulty write or an operator's update would. */
  async function setBody(table: RenderedTable, id: string, text: string | null): Promise<void> {
    await store.db
      .updateTable(table as 'people')
      .set({ body: text === null ? null : store.encodeBody(text) })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .execute();
  }

  async function firstId(table: RenderedTable, offset = 0): Promise<string> {
    const row = await store.db
      .selectFrom(table as 'people')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .orderBy('id')
      .offset(offset)
      .limit(1)
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async function eventsOf(id: string) {
    return store.db
      .selectFrom('events')
      .select(['event', 'field_name'])
      .where('workspace_id', '=', workspaceId)
      .where('object_id', '=', id)
      .orderBy('seq')
      .execute();
  }

  it('a demo workspace verifies clean, every record of every type compared, in chunks', async () => {
    const found: BodyDifference[] = [];
    const report = await verifyWorkspace(store, workspaceId, {
      chunk: 7,
      onDifference: (d) => found.push(d),
    });
    expect(found).toEqual([]);
    expect(report.differences).toBe(0);
    expect(report.indexDifferences).toBe(0);
    const counts = await rowCounts();
    expect(report.checked).toEqual({
      people: counts.people,
      organization: counts.organizations,
      deal: counts.deals,
      lead: counts.leads,
      product: counts.products,
      quote: counts.quotes,
      customObject: counts.custom_objects,
    });
    expect(report.checked.people).toBe(40);
    for (const n of Object.values(report.checked)) expect(n).toBeGreaterThan(0);
  });

  it('reports a body altered by hand with its key, and --repair restores it with a 수정 event', async () => {
    const id = await firstId('people', 9);
    const good = (await storedBody('people', id))!;
    const altered = { ...JSON.parse(good), 이름: '변조된 이름' };
    await setBody('people', id, JSON.stringify(altered));
    const eventsBefore = await eventsOf(id);

    const found: BodyDifference[] = [];
    const report = await verifyWorkspace(store, workspaceId, {
      chunk: 7,
      onDifference: (d) => found.push(d),
    });
    expect(report.differences).toBe(1);
    expect(report.repaired).toBe(0);
    expect(found.map((d) => [d.type, d.id])).toEqual([['people', id]]);
    expect(firstDifference(found[0]!.stored, found[0]!.rendered)).toEqual({
      key: '이름',
      stored: '변조된 이름',
      rendered: JSON.parse(good).이름,
    });
    // Verifying alone changes nothing.
    expect(await storedBody('people', id)).toBe(JSON.stringify(altered));

    // The API serves the stored JSON: the altered name, until the repair.
    expect((await get(app, token, `/v2/people/${id}`)).json.data.people[0].이름).toBe(
      '변조된 이름',
    );
    const repair = await verifyWorkspace(store, workspaceId, { repair: true });
    expect(repair).toMatchObject({ differences: 1, repaired: 1 });
    expect(await storedBody('people', id)).toBe(good);
    expect((await get(app, token, `/v2/people/${id}`)).json.data.people[0].이름).toBe(
      JSON.parse(good).이름,
    );
    expect((await eventsOf(id)).slice(eventsBefore.length)).toEqual([
      { event: '수정', field_name: '이름' },
    ]);
    expect((await verifyWorkspace(store, workspaceId)).differences).toBe(0);
  });

  it('--repair shows a sensitive field in its 수정 event as the API events do, masked', async () => {
    const id = await firstId('people', 11);
    const fieldId = await writeWorkspace(store, workspaceId, async (w) => {
      const field = await defineCustomField(w, {
        recordType: 'people',
        name: '주민번호',
        type: 'string',
        isSensitive: true,
      });
      await setCustomValues(w, 'people', id, { [field]: '900101-1234567' });
      return field;
    });
    expect(fieldId).toBeTruthy();
    const good = (await storedBody('people', id))!;
    expect(JSON.parse(good).주민번호).toBe('900101-1234567');
    await setBody('people', id, JSON.stringify({ ...JSON.parse(good), 주민번호: '변조' }));
    const seen = (await eventsOf(id)).length;
    const repair = await verifyWorkspace(store, workspaceId, { repair: true });
    expect(repair.repaired).toBe(1);
    const payloads = await store.db
      .selectFrom('events')
      .select('payload')
      .where('workspace_id', '=', workspaceId)
      .where('object_id', '=', id)
      .orderBy('seq')
      .execute();
    const added = payloads.slice(seen).map((r) => r.payload);
    expect(added).toHaveLength(1);
    expect(added[0]).not.toContain('900101');
    expect(added[0]).toContain(SENSITIVE_VALUE);
  });

  it('repairs a missing body and one that is not JSON, with no events; other types too', async () => {
    const person = await firstId('people', 3);
    const deal = await firstId('deals', 1);
    const quote = await firstId('quotes');
    const good = {
      person: (await storedBody('people', person))!,
      deal: (await storedBody('deals', deal))!,
      quote: (await storedBody('quotes', quote))!,
    };
    await setBody('people', person, null);
    await setBody('deals', deal, '{"id":');
    const quoteJson = JSON.parse(good.quote);
    const firstKey = Object.keys(quoteJson)[1]!;
    await setBody('quotes', quote, JSON.stringify({ ...quoteJson, [firstKey]: 'x' }));
    const dealEvents = (await eventsOf(deal)).length;

    const found: BodyDifference[] = [];
    const report = await verifyWorkspace(store, workspaceId, {
      repair: true,
      onDifference: (d) => found.push(d),
    });
    expect(report).toMatchObject({ differences: 3, repaired: 3 });
    expect(found.map((d) => [d.type, d.id, firstDifference(d.stored, d.rendered).key])).toEqual([
      ['people', person, '(no body)'],
      ['deal', deal, '(not JSON)'],
      ['quote', quote, firstKey],
    ]);
    expect(await storedBody('people', person)).toBe(good.person);
    expect(await storedBody('deals', deal)).toBe(good.deal);
    expect(await storedBody('quotes', quote)).toBe(good.quote);
    expect(await eventsOf(deal)).toHaveLength(dealEvents);
    expect((await verifyWorkspace(store, workspaceId)).differences).toBe(0);
  });

  it('reports the records a base-table change left stale, derived keys included, and repairs them', async () => {
    const deal = await store.db
      .selectFrom('deals')
      .select(['id', 'people_id'])
      .where('workspace_id', '=', workspaceId)
      .where('people_id', 'is not', null)
      .where((eb) => eb.or([eb('outcome', 'is', null), eb('outcome', 'not in', ['Won', 'Lost'])]))
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const personId = deal.people_id!;
    const before = JSON.parse((await storedBody('people', personId))!);
    // A change of a base table alone, no read model refresh: as a faulty write would leave it.
    await store.db
      .updateTable('deals')
      .set({ outcome: 'Won' })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', deal.id)
      .execute();

    const found: BodyDifference[] = [];
    await verifyWorkspace(store, workspaceId, { onDifference: (d) => found.push(d) });
    const ids = found.map((d) => `${d.type} ${d.id}`);
    expect(ids).toContain(`people ${personId}`);
    expect(ids).toContain(`deal ${deal.id}`);
    const person = found.find((d) => d.id === personId)!;
    expect(firstDifference(person.stored, person.rendered)).toEqual({
      key: '진행중 딜 개수',
      stored: before['진행중 딜 개수'],
      rendered: before['진행중 딜 개수'] - 1,
    });

    const repair = await verifyWorkspace(store, workspaceId, { repair: true });
    expect(repair.repaired).toBe(found.length);
    const after = (await get(app, token, `/v2/people/${personId}`)).json.data.people[0];
    expect(after['성사된 딜 개수']).toBe(before['성사된 딜 개수'] + 1);
    expect((await verifyWorkspace(store, workspaceId)).differences).toBe(0);
  });

  it('the CLI: exit 0 when clean, a line per difference and exit 1, --repair, one-line errors', async () => {
    const clean = await cli(store.url, ['verify', '--workspace', workspaceId]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(clean.stdout).toMatch(
      /^verified \d+ records \(people 40, organization \d+, .*: 0 differences\n$/,
    );

    const id = await firstId('organizations', 2);
    const good = (await storedBody('organizations', id))!;
    await setBody('organizations', id, JSON.stringify({ ...JSON.parse(good), 이름: '다른 회사' }));
    const dirty = await cli(store.url, ['verify', '--workspace', workspaceId]);
    expect(dirty.code).toBe(1);
    const lines = dirty.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `organization ${id} 이름: stored "다른 회사" rendered ${JSON.stringify(JSON.parse(good).이름)}`,
    );
    expect(lines[1]).toMatch(/: 1 difference$/);

    const repaired = await cli(store.url, ['verify', '--workspace', workspaceId, '--repair']);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout.trim().split('\n')[1]).toMatch(/: 1 difference, 1 repaired$/);
    expect(await storedBody('organizations', id)).toBe(good);
    expect((await cli(store.url, ['verify', '--workspace', workspaceId])).code).toBe(0);

    // The search index: a record's rows gone and a row no JSON holds, found and mended.
    const person = await firstId('people', 4);
    await store.db
      .deleteFrom('search_values')
      .where('workspace_id', '=', workspaceId)
      .where('record_id', '=', person)
      .execute();
    const stray = await firstId('people', 5);
    await store.db
      .insertInto('search_values')
      .values({
        workspace_id: workspaceId,
        record_type: 'people',
        field: 'b:생성 날짜',
        value: '1999-01-01',
        record_id: stray,
      })
      .execute();
    const unindexed = await cli(store.url, ['verify', '--workspace', workspaceId]);
    expect(unindexed.code).toBe(1);
    const found = unindexed.stdout.trim().split('\n');
    expect(found).toHaveLength(3);
    expect(found.find((l) => l.startsWith(`people ${person} `))).toMatch(
      /search index: \d+ rows missing, 0 extra \(/,
    );
    expect(found.find((l) => l.startsWith(`people ${stray} `))).toBe(
      `people ${stray} search index: 0 rows missing, 1 extra (b:생성 날짜 "1999-01-01")`,
    );
    expect(found.at(-1)).toMatch(/: 0 differences; search index: 2 records differ$/);
    const reindexed = await cli(store.url, ['verify', '--workspace', workspaceId, '--repair']);
    expect(reindexed.code, reindexed.stderr).toBe(0);
    expect(reindexed.stdout.trim().split('\n').at(-1)).toMatch(
      /search index: 2 records differ, 2 repaired$/,
    );
    expect((await cli(store.url, ['verify', '--workspace', workspaceId])).code).toBe(0);

    const unknown = await cli(store.url, ['verify', '--workspace', 'no-such-workspace']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe("salescrm: no workspace 'no-such-workspace'\n");
    const usage = await cli(store.url, ['verify']);
    expect(usage.code).toBe(2);
    expect(usage.stderr.split('\n')[0]).toBe(
      "salescrm: required option '--workspace <ID>' not specified",
    );
  });
});
