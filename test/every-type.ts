import { insertActivities } from '../src/resources/deal-activities/writes.ts';
import { insertDeals } from '../src/resources/deals/writes.ts';
import { insertLeads } from '../src/resources/leads/writes.ts';
import { insertOrganizations } from '../src/resources/organizations/writes.ts';
import { insertPeople } from '../src/resources/people/writes.ts';
import { recordPeopleHistory } from '../src/resources/people-history/writes.ts';
import { insertPipeline } from '../src/resources/pipelines/writes.ts';
import { insertProducts } from '../src/resources/products/writes.ts';
import { insertQuotes } from '../src/resources/quotes/writes.ts';
import type { TestWorkspace } from './helpers.ts';

/** Ids of the records `seedEveryType` wrote, by list. */
export interface EveryType {
  people: string[];
  organizations: string[];
  deals: string[];
  leads: string[];
  products: string[];
  quotes: string[];
  activities: string[];
  history: string[];
}

/**
 * Two records of every listed type (so `limit=1` yields a cursor), a quote on the first
 * lead, and pipelines: deal `신규 영업` (`미팅`, `계약`), deal `재계약` (`검토`), and lead
 * pipeline `리드 접수` (`접수`, a stage name no deal pipeline has).
 */
export async function seedEveryType(ws: TestWorkspace, tag: string): Promise<EveryType> {
  return ws.write(async (w) => {
    const sales = await insertPipeline(w, {
      kind: 'deal',
      name: '신규 영업',
      stages: [{ name: '미팅' }, { name: '계약' }],
    });
    await insertPipeline(w, {
      kind: 'deal',
      name: '재계약',
      stages: [{ name: '검토' }],
    });
    await insertPipeline(w, {
      kind: 'lead',
      name: '리드 접수',
      stages: [{ name: '접수' }],
    });
    const organizations = await insertOrganizations(w, [
      { name: `${tag} 회사 1`, ownerId: ws.userId },
      { name: `${tag} 회사 2`, ownerId: ws.userId },
    ]);
    const people = await insertPeople(w, [
      { name: `${tag} 고객 1`, organizationId: organizations[0], ownerId: ws.userId },
      { name: `${tag} 고객 2`, organizationId: organizations[1], ownerId: ws.userId },
    ]);
    const historyIds = [`${tag}-h1`, `${tag}-h2`];
    await recordPeopleHistory(
      w,
      people.map((peopleId, i) => ({
        id: historyIds[i],
        peopleId,
        type: 'editField' as const,
        fieldName: '포지션',
        fieldValue: `팀장 ${i}`,
        ownerId: ws.userId,
      })),
    );
    const deals = await insertDeals(
      w,
      people.map((peopleId, i) => ({
        name: `${tag} 딜 ${i}`,
        peopleId,
        organizationId: organizations[i],
        pipelineId: sales.id,
        stageId: sales.stageIds[i],
        amount: 1000 * (i + 1),
        ownerId: ws.userId,
      })),
    );
    const leads = await insertLeads(
      w,
      people.map((peopleId, i) => ({ name: `${tag} 리드 ${i}`, peopleId, ownerId: ws.userId })),
    );
    const products = await insertProducts(w, [
      { name: `${tag} 상품 1`, price: 10_000, ownerId: ws.userId },
      { name: `${tag} 상품 2`, price: 20_000, ownerId: ws.userId },
    ]);
    const quotes = await insertQuotes(w, [
      {
        name: `${tag} 견적`,
        leadId: leads[0],
        isMain: true,
        ownerId: ws.userId,
        lines: [{ productId: products[0]!, price: 10_000, quantity: 2 }],
      },
    ]);
    const activities = await insertActivities(w, [
      { subjectType: 'deal', subjectId: deals[0]!, type: 'create', dealStatus: 'In progress' },
      { subjectType: 'lead', subjectId: leads[0]!, type: 'create' },
    ]);
    return {
      people,
      organizations,
      deals,
      leads,
      products,
      quotes,
      activities,
      history: historyIds,
    };
  });
}
