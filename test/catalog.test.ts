/**
 * The catalog a write keeps between writes (users, teams, pipelines, stages, web forms,
 * sequences, product names, custom fields, webhooks): every write must see it as committed,
 * whoever changed it (another process, a write of its own that rolled back, the write
 * itself), while writes that change nothing of it read one version number instead of ten
 * tables.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { heapBytes } from '../src/cache/heap-size.ts';
import { catalogCacheBytes } from '../src/config.ts';
import { createPerson } from '../src/resources/people/commands.ts';
import {
  catalogAt,
  keepCatalogs,
  loadCatalog,
  readCatalogVersion,
  stageKeysOfWorkspace,
} from '../src/store/catalog.ts';
import { openStore, type Store } from '../src/store/database.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { makeCustomField, makePipeline, makeProduct, makeTeam, makeUser } from './factories.ts';
import { type TestWorkspace, testStore, testWorkspace } from './helpers.ts';
import { insertWebhook } from './webhook-fixtures.ts';

let store: Awaited<ReturnType<typeof testStore>>;
let other: Store;
let ws: TestWorkspace;
beforeAll(async () => {
  store = await testStore();
  other = openStore(store.url);
});
afterAll(async () => {
  await other.close();
  await store.dispose();
});
beforeEach(async () => {
  ws = await testWorkspace(store);
});

type Body = Parameters<typeof createPerson>[2];

/** Creates a person through the API's command in `on` (this store unless told otherwise). */
function create(body: Body, on: Store = store) {
  return writeWorkspace(on, ws.workspaceId, (w) => createPerson(w, ws.userId, body), {
    actor: { source: 'API', sourceId: ws.userId },
  });
}

async function bodyOf(id: string): Promise<Record<string, unknown>> {
  const row = await store.db
    .selectFrom('people')
    .select('body')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return JSON.parse(String(row.body));
}

async function catalogVersion(): Promise<number> {
  const row = await store.db
    .selectFrom('workspaces')
    .select('catalog_version')
    .where('id', '=', ws.workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.catalog_version);
}

const fieldValue = (name: string, value: string) => ({ fieldList: [{ name, stringValue: value }] });

describe('the catalog kept between writes', () => {
  it('takes a custom field defined through another connection at the next write', async () => {
    await create({ name: '먼저' });
    await expect(create({ name: '거절', ...fieldValue('등급', 'A') })).rejects.toThrow(/등급/);
    await writeWorkspace(other, ws.workspaceId, (w) => makeCustomField(w, 'people', '등급'));
    const { id } = await create({ name: '나중', ...fieldValue('등급', 'A') });
    expect((await bodyOf(id)).등급).toBe('A');
  });

  it('renders a user renamed through another connection', async () => {
    const { id } = await create({ name: '고객' });
    expect((await bodyOf(id)).담당자).toEqual({ id: ws.userId, name: '김관리' });
    await writeWorkspace(other, ws.workspaceId, (w) =>
      w.trx
        .updateTable('users')
        .set({ name: '김바뀜' })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', ws.userId)
        .execute(),
    );
    const { id: next } = await create({ name: '다음 고객' });
    expect((await bodyOf(next)).담당자).toEqual({ id: ws.userId, name: '김바뀜' });
  });

  it('fans out to a webhook registered through another connection', async () => {
    await create({ name: '전' });
    await insertWebhook(other, ws.workspaceId, { url: 'https://example.com/hook' });
    await create({ name: '후' });
    const deliveries = await store.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .execute();
    expect(deliveries).toHaveLength(1);
  });

  it('forgets what a write that rolled back changed', async () => {
    await create({ name: '먼저' });
    await expect(
      writeWorkspace(store, ws.workspaceId, async (w) => {
        await makeCustomField(w, 'people', '취소될 필드');
        // The write itself sees its new field…
        await createPerson(w, ws.userId, { name: '안', ...fieldValue('취소될 필드', 'x') });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // …and no later write does.
    await expect(create({ name: '밖', ...fieldValue('취소될 필드', 'x') })).rejects.toThrow(
      /취소될 필드/,
    );
  });

  it("gives a record created after a team in the same write the owner's new team", async () => {
    await create({ name: '먼저' });
    const { person, team } = await ws.write(async (w) => {
      const seller = await makeUser(w, '이영업');
      const team = await makeTeam(w, '새팀', [seller]);
      const owner = { fieldList: [{ name: '담당자', userValueId: seller }] };
      const person = await createPerson(w, ws.userId, { name: '같은 쓰기', ...owner });
      return { person: person.id, team };
    });
    expect((await bodyOf(person)).팀).toEqual([{ id: team, name: '새팀' }]);
  });
});

describe('catalog_version', () => {
  it('moves with a product name, not with a product body or a record', async () => {
    const start = await catalogVersion();
    await create({ name: '고객' });
    expect(await catalogVersion()).toBe(start);
    const product = await ws.write((w) => makeProduct(w, { name: '상품' }));
    const afterProduct = await catalogVersion();
    expect(afterProduct).toBeGreaterThan(start);
    await ws.write((w) =>
      w.trx
        .updateTable('products')
        .set({ body: store.encodeBody('{}') })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', product)
        .execute(),
    );
    expect(await catalogVersion()).toBe(afterProduct);
    await ws.write((w) =>
      w.trx
        .updateTable('products')
        .set({ name: '새 이름' })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', product)
        .execute(),
    );
    expect(await catalogVersion()).toBe(afterProduct + 1);
  });

  it('moves with the write that changes the catalog, in the same transaction, never without it', async () => {
    const start = await catalogVersion();
    await expect(
      ws.write(async (w) => {
        await makeUser(w, '취소될 사람');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await catalogVersion()).toBe(start);
    await ws.write((w) => makeUser(w, '남을 사람'));
    expect(await catalogVersion()).toBeGreaterThan(start);
  });
});

describe('the stage keys of the catalog', () => {
  /** Sets a row's position (a pipeline's or a stage's), as a reorder does. */
  const place = (table: 'pipelines' | 'pipeline_stages', id: string, position: number) =>
    ws.write((w) =>
      w.trx
        .updateTable(table)
        .set({ position })
        .where('workspace_id', '=', ws.workspaceId)
        .where('id', '=', id)
        .execute(),
    );
  const entered = (keys: readonly { entered: string }[] | undefined) =>
    (keys ?? []).map((k) => k.entered);

  it("follow the pipelines' and the stages' positions, not their ids, in this workspace alone", async () => {
    const { first, second, lead } = await ws.write(async (w) => ({
      first: await makePipeline(w, { name: '가', stages: ['하나', '둘', '셋'] }),
      second: await makePipeline(w, { name: '나', stages: ['넷'] }),
      lead: await makePipeline(w, { kind: 'lead', name: '다', stages: ['다섯'] }),
    }));
    const theirs = await testWorkspace(store, '다른 워크스페이스');
    await theirs.write((w) => makePipeline(w, { name: '남의 것', stages: ['비밀'] }));
    // The later pipeline first, and the first pipeline's stages in reverse.
    await place('pipelines', second.id, -2);
    await place('pipelines', first.id, -1);
    for (const [i, id] of [...first.stageIds].reverse().entries())
      await place('pipeline_stages', id, -10 + i);
    const catalog = await loadCatalog(store.db, ws.workspaceId, 0);
    const deal = entered(catalog.stageKeys.get('deal')).filter((k) => /\((가|나)\)/.test(k));
    expect(deal).toEqual([
      '넷(나)로 진입한 날짜',
      '셋(가)로 진입한 날짜',
      '둘(가)로 진입한 날짜',
      '하나(가)로 진입한 날짜',
    ]);
    expect(entered(catalog.stageKeys.get('deal')).some((k) => k.includes('남의 것'))).toBe(false);
    expect(entered(catalog.stageKeys.get('lead'))).toContain('다섯(다)로 진입한 날짜');
    expect(catalog.names.get('pipeline')?.get(lead.id)).toBe('다');
    expect(catalog.names.get('pipelineStage')?.get(second.stageIds[0]!)).toBe('넷');
    // The same keys where they are read without the rest of the catalog.
    expect(await stageKeysOfWorkspace(store.reader, ws.workspaceId)).toEqual(catalog.stageKeys);
  });

  describe('kept within CATALOG_CACHE_BYTES', () => {
    afterAll(() => keepCatalogs(store, catalogCacheBytes()));

    /** The catalog a write of each workspace would get now, in turn. */
    async function catalogsOf(ids: string[]) {
      const out = [];
      for (const id of ids) {
        out.push(await catalogAt(store, store.db, id, await readCatalogVersion(store.db, id)));
      }
      return out;
    }

    it('keeps the catalogs it holds when writes go round more workspaces than fit', async () => {
      const ids = [ws.workspaceId];
      for (let i = 1; i < 6; i++) ids.push((await testWorkspace(store)).workspaceId);
      const size = heapBytes(await loadCatalog(store.db, ws.workspaceId, 0));
      // Room for three of the six (test workspaces' catalogs are alike in size).
      keepCatalogs(store, Math.floor(size * 3.5));
      const first = await catalogsOf(ids);
      const second = await catalogsOf(ids);
      const third = await catalogsOf(ids);
      // The first three kept and used again; the other three read again at each turn. Least
      // recently used eviction would read all six every time.
      const same = (a: object[], b: object[]) => a.map((c, i) => c === b[i]);
      expect(same(first, second)).toEqual([true, true, true, false, false, false]);
      expect(same(second, third)).toEqual([true, true, true, false, false, false]);
      expect(third.map((c) => c.version)).toEqual(first.map((c) => c.version));
    });

    it('keeps none with a budget of 0, and reads a catalog again once its version moves', async () => {
      keepCatalogs(store, 0);
      const version = await readCatalogVersion(store.db, ws.workspaceId);
      const [a] = await catalogsOf([ws.workspaceId]);
      const [b] = await catalogsOf([ws.workspaceId]);
      expect(a).not.toBe(b);
      expect(b).toEqual(a);
      keepCatalogs(store, 64 * 1024 ** 2);
      const [c] = await catalogsOf([ws.workspaceId]);
      expect((await catalogsOf([ws.workspaceId]))[0]).toBe(c);
      await ws.write((w) => makeTeam(w, '새 팀', []));
      const [d] = await catalogsOf([ws.workspaceId]);
      expect(d).not.toBe(c);
      expect(d?.version).toBeGreaterThan(version);
      expect([...(d?.names.get('team')?.values() ?? [])]).toContain('새 팀');
    });
  });
});
