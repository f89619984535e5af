/**
 * Lists every open deal of a pipeline with its person's name.
 *
 *   SALESCRM_URL=http://127.0.0.1:3000 SALESCRM_TOKEN=... npm run -s example:open-deals -- [PIPELINE]
 *
 * Without PIPELINE it takes the workspace's first deal pipeline.
 *
 * Which deals are open: a deal's `상태` is a workspace-defined label (`SQL`, `Convert`, ...),
 * not its outcome, so it cannot tell. `마감일` can: the service sets it when the deal is won
 * or lost and clears it when the deal is reopened, so a deal is open exactly when its
 * `마감일` is null. The list records carry it, so no deal has to be fetched on its own.
 */
import { CrmApiError, CrmClient, type Deal } from 'salescrm/client';

/** People fetched at the same time at most. */
const CONCURRENCY = 4;

async function main(): Promise<number> {
  const baseUrl = process.env.SALESCRM_URL ?? 'http://127.0.0.1:3000';
  const token = process.env.SALESCRM_TOKEN;
  if (!token) {
    console.error('open-deals: set SALESCRM_TOKEN (a token of the workspace)');
    return 2;
  }
  const crm = new CrmClient({ baseUrl, token });

  const pipelineName = process.argv[2] ?? (await crm.deals.pipelines())[0]?.name;
  if (!pipelineName) {
    console.error('open-deals: the workspace has no deal pipeline');
    return 1;
  }

  const open: Deal[] = [];
  let total = 0;
  for await (const deal of crm.deals.list({ pipelineName, limit: 100 })) {
    total += 1;
    if (deal['마감일'] === null) open.push(deal);
  }

  // Each person once, a few at a time.
  const names = new Map<string, string>();
  const peopleIds = [...new Set(open.map((d) => d.peopleId).filter((id) => id !== null))];
  for (let i = 0; i < peopleIds.length; i += CONCURRENCY) {
    const batch = peopleIds.slice(i, i + CONCURRENCY);
    const people = await Promise.all(batch.map((id) => crm.people.get(id)));
    for (const person of people) names.set(person.id, person['이름']);
  }

  for (const deal of open) {
    const person = deal.peopleId === null ? '-' : (names.get(deal.peopleId) ?? '?');
    const stage = deal['파이프라인 단계']?.name ?? '-';
    const amount = deal['금액'] === null ? '-' : deal['금액'].toLocaleString('ko-KR');
    console.log([deal.id, deal['이름'], stage, deal['상태'], amount, person].join('\t'));
  }
  console.log(`${open.length} open of ${total} deals in pipeline '${pipelineName}'`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof CrmApiError)
      console.error(
        `open-deals: ${error.name} ${error.status}: ${error.message}` +
          (error.requestId ? ` (request ${error.requestId})` : ''),
      );
    else console.error('open-deals:', error);
    process.exitCode = 1;
  },
);
