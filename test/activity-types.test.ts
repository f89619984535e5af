/**
 * Activity types: the activity lists' `types` filter takes the fifteen types the live API's
 * lists know, and a merge writes a `merge` activity on the kept record, in the list of its
 * type (a deal's with the deal's outcome, a lead's in both lead lists).
 */
import type { FastifyInstance } from 'fastify';
import { expect, it } from 'vitest';
import { makeDeal, makeLead, makeOrganization, makePerson } from './factories.ts';
import { appWithWorkspace, get, post, type TestWorkspace } from './helpers.ts';

let app: FastifyInstance;
let ws: TestWorkspace;
appWithWorkspace((made) => ({ app, ws } = made));

/** The fifteen types of the live API's activity lists. */
const LIVE_TYPES = [
  'create',
  'webFormView',
  'webFormSubmit',
  'email',
  'emailOpen',
  'emailLinkClick',
  'smsSend',
  'memoCreate',
  'todoCreate',
  'meeting',
  'documentView',
  'kakaoAlimtalkSend',
  'merge',
  'modusignContractCreated',
  'recordingCreate',
];

it('takes every type of the live activity lists in `types`, and refuses others', async () => {
  for (const path of [
    '/v2/deal/activity',
    '/v2/lead/activity',
    '/v2/people/activity',
    '/v2/organization/activity',
    '/v2/custom-object/activity',
  ]) {
    for (const type of LIVE_TYPES) {
      const res = await get(app, ws.token, `${path}?types=${type}`);
      expect(res.status, `${path} ${type}: ${res.text}`).toBe(200);
    }
    const all = await get(app, ws.token, `${path}?types=${LIVE_TYPES.join(',')}`);
    expect(all.status, all.text).toBe(200);
    const bad = await get(app, ws.token, `${path}?types=mergeX`);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain('mergeX');
  }
});

it('writes a `merge` activity on the kept record of every type', async () => {
  const ids = await ws.write(async (w) => {
    const org = await makeOrganization(w, { name: '(주)유지' });
    const otherOrg = await makeOrganization(w, { name: '(주)병합' });
    const person = await makePerson(w, { name: '김유지' });
    const otherPerson = await makePerson(w, { name: '김병합' });
    return {
      people: [person, otherPerson],
      organization: [org, otherOrg],
      deal: [
        await makeDeal(w, { peopleId: person, outcome: 'Won' }),
        await makeDeal(w, { peopleId: person }),
      ],
      lead: [await makeLead(w, { peopleId: person }), await makeLead(w, { peopleId: person })],
    };
  });
  const idKey = {
    people: 'peopleId',
    organization: 'organizationId',
    deal: 'dealId',
    lead: 'leadId',
  } as const;
  for (const kind of ['people', 'organization', 'deal', 'lead'] as const) {
    const [kept, merged] = ids[kind];
    const res = await post(app, ws.token, `/v2/${kind}/${kept}/merge`, { mergedId: merged });
    expect(res.status, res.text).toBe(200);
    const list = await get(
      app,
      ws.token,
      `/v2/${kind}/activity?${idKey[kind]}=${kept}&types=merge`,
    );
    expect(list.status, list.text).toBe(200);
    const activities = list.json.data[`${kind}ActivityList`];
    expect(activities, kind).toHaveLength(1);
    expect(activities[0]).toMatchObject({ type: 'merge', [idKey[kind]]: kept });
    if (kind === 'deal') expect(activities[0].dealStatus).toBe('Won');
  }
  // A lead's is in the deal activity list too, in the deal activity's shape.
  const dealList = await get(app, ws.token, `/v2/deal/activity?dealId=${ids.lead[0]}&types=merge`);
  expect(dealList.json.data.dealActivityList).toMatchObject([
    { type: 'merge', dealStatus: null, dealId: ids.lead[0] },
  ]);
});
