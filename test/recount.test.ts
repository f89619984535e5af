/**
 * People and organizations whose deal and lead counts alone a write changed get the counts
 * patched into their stored JSON (`src/store/read-model/recount.ts`) instead of a whole new
 * rendering; the result must be the JSON a whole rendering makes, which `verify` checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoWorkspace } from '../src/ingest/demo/create-workspace.ts';
import { setDealOutcome } from '../src/resources/deals/writes.ts';
import { verifyWorkspace } from '../src/store/read-model/verify.ts';
import { writeWorkspace } from '../src/store/write.ts';
import { type TestStore, testStore } from './helpers.ts';

describe('recounting a person or organization', { timeout: 120_000 }, () => {
  let store: TestStore;
  let workspaceId: string;

  beforeAll(async () => {
    store = await testStore();
    workspaceId = (await createDemoWorkspace(store, { seed: 7, people: 20 })).workspaceId;
  }, 120_000);
  afterAll(async () => {
    await store?.dispose();
  });

  /** A person with a deal in progress, and that deal. */
  async function personWithDeal(): Promise<{ personId: string; dealId: string }> {
    const row = await store.db
      .selectFrom('deals')
      .select(['id', 'people_id'])
      .where('workspace_id', '=', workspaceId)
      .where('people_id', 'is not', null)
      .where('outcome', '=', 'In progress')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return { personId: row.people_id!, dealId: row.id };
  }

  async function stored(id: string): Promise<Record<string, unknown> | null> {
    const row = await store.db
      .selectFrom('people')
      .select('body')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.body === null ? null : JSON.parse(row.body.toString());
  }

  async function expectVerified(): Promise<void> {
    const report = await verifyWorkspace(store, workspaceId);
    expect(report.differences).toBe(0);
    expect(report.indexDifferences).toBe(0);
  }

  it('patches the counts of a deal’s outcome into its person, and changes nothing else', async () => {
    const { personId, dealId } = await personWithDeal();
    const before = (await stored(personId))!;
    await writeWorkspace(store, workspaceId, (w) => setDealOutcome(w, dealId, 'Won'));
    const after = (await stored(personId))!;
    expect(after['성사된 딜 개수']).toBe((before['성사된 딜 개수'] as number) + 1);
    expect(after['진행중 딜 개수']).toBe((before['진행중 딜 개수'] as number) - 1);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    const counters = ['딜 개수', '진행중 딜 개수', '성사된 딜 개수'];
    for (const key of Object.keys(before).filter((k) => !counters.includes(k)))
      expect(after[key], key).toEqual(before[key]);
    await expectVerified();
  });

  it('renders in full a record also marked for a change of its own', async () => {
    const { personId, dealId } = await personWithDeal();
    await writeWorkspace(store, workspaceId, async (w) => {
      await w.trx
        .updateTable('people')
        .set({ name: '새이름' })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', personId)
        .execute();
      w.touched.mark('people', personId);
      await setDealOutcome(w, dealId, 'Lost');
    });
    expect((await stored(personId))!.이름).toBe('새이름');
    await expectVerified();
  });

  it('renders in full a record whose stored JSON was damaged by hand, and the write goes through', async () => {
    const { personId, dealId } = await personWithDeal();
    for (const [damaged, outcome] of [
      ['{"id":', 'Won'],
      ['[1]', 'Lost'],
    ] as const) {
      await store.db
        .updateTable('people')
        .set({ body: store.encodeBody(damaged) })
        .where('workspace_id', '=', workspaceId)
        .where('id', '=', personId)
        .execute();
      await writeWorkspace(store, workspaceId, (w) => setDealOutcome(w, dealId, outcome));
      expect((await stored(personId))!.id).toBe(personId);
      await expectVerified();
    }
  });

  it('renders in full a record that has no stored JSON yet', async () => {
    const { personId } = await personWithDeal();
    await store.db
      .updateTable('people')
      .set({ body: null })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', personId)
      .execute();
    await writeWorkspace(store, workspaceId, async (w) => {
      w.touched.markCounts('people', personId);
    });
    expect(await stored(personId)).not.toBeNull();
    await expectVerified();
  });
});
