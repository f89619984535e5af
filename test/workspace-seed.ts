import { defineCustomField } from '../src/resources/custom-fields/writes.ts';
import { insertTeams } from '../src/resources/workspaces/writes.ts';
import {
  makeDeal,
  makeLead,
  makeNote,
  makeOrganization,
  makePerson,
  makePipeline,
  makeSubmission,
  makeTodo,
  makeUser,
  makeWebForm,
} from './factories.ts';
import type { TestWorkspace } from './helpers.ts';

/** Ids of what `seedWorkspaceReads` wrote, by list (each list in list order). */
export interface WorkspaceSeed {
  users: string[];
  teams: string[];
  dealPipelines: string[];
  leadPipelines: string[];
  todos: string[];
  memos: string[];
  webForms: string[];
  /** The form with submissions. */
  webForm: string;
  /** `peopleId` of each submission, in order. */
  submissionPeople: (string | null)[];
  customFields: string[];
  deal: string;
  lead: string;
  person: string;
  organization: string;
}

/**
 * Two or more of every workspace-level list (so `limit=1` yields a cursor): users, teams,
 * pipelines of both kinds, todos, notes, web forms, and two submissions of the first form;
 * a custom field on todos and on people. Records are created one millisecond apart.
 */
export async function seedWorkspaceReads(ws: TestWorkspace, tag: string): Promise<WorkspaceSeed> {
  return ws.write(async (w) => {
    const users = [await makeUser(w, `${tag} 사용자1`), await makeUser(w, `${tag} 사용자2`)];
    const [team] = await insertTeams(w.trx, w.workspaceId, [
      { name: `${tag} 팀`, memberIds: users },
    ]);
    const deal1 = await makePipeline(w, { name: `${tag} 딜 파이프라인 1` });
    const deal2 = await makePipeline(w, { name: `${tag} 딜 파이프라인 2` });
    const lead1 = await makePipeline(w, { kind: 'lead', name: `${tag} 리드 파이프라인 1` });
    const lead2 = await makePipeline(w, { kind: 'lead', name: `${tag} 리드 파이프라인 2` });
    const customFields = [
      await defineCustomField(w, { recordType: 'todo', name: `${tag} 우선순위`, type: 'string' }),
      await defineCustomField(w, { recordType: 'people', name: `${tag} 등급`, type: 'string' }),
    ];
    const organization = await makeOrganization(w, { name: `${tag} 회사` });
    const person = await makePerson(w, { name: `${tag} 고객`, organizationId: organization });
    const deal = await makeDeal(w, { name: `${tag} 딜`, peopleId: person });
    const lead = await makeLead(w, { name: `${tag} 리드`, peopleId: person });
    const t = (ms: number) => new Date(Date.UTC(2024, 3, 8) + ms).toISOString();
    const todos = [
      await makeTodo(w, {
        subjectType: 'deal',
        subjectId: deal,
        ownerId: users[0]!,
        custom: { [customFields[0]!]: `${tag} 높음` },
        createdAt: t(1),
      }),
      await makeTodo(w, { subjectType: 'people', subjectId: person, createdAt: t(2) }),
    ];
    const memos = [
      await makeNote(w, { subjectType: 'deal', subjectId: deal, createdAt: t(3) }),
      await makeNote(w, { subjectType: 'lead', subjectId: lead, createdAt: t(4) }),
    ];
    const webForms = [await makeWebForm(w, `${tag} 웹폼 1`), await makeWebForm(w, `${tag} 웹폼 2`)];
    await makeSubmission(w, { webFormId: webForms[0]!, peopleId: person, createdAt: t(5) });
    await makeSubmission(w, { webFormId: webForms[0]!, dealId: deal, createdAt: t(6) });
    return {
      users: [ws.userId, ...users],
      teams: [ws.teamId, team!],
      dealPipelines: [deal1.id, deal2.id],
      leadPipelines: [lead1.id, lead2.id],
      todos,
      memos,
      webForms,
      webForm: webForms[0]!,
      submissionPeople: [person, null],
      customFields,
      deal,
      lead,
      person,
      organization,
    };
  });
}
