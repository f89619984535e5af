/**
 * What the demo's generators share: the data they fill in (`DemoData`), what they know of
 * the records drawn so far (`OrgInfo`, `PersonInfo`, `RecordInfo`, `ProductInfo`), and the
 * generation's state (`DemoContext`), with its one random sequence. Every generator draws
 * from `ctx.r` and `ctx.ids`, so the order the generators run in is part of the data.
 */
import type { DealOutcome } from '../../domain/deals.ts';
import type { ProductKind } from '../../domain/quotes.ts';
import type { NewCustomField } from '../../resources/custom-fields/writes.ts';
import type { NewCustomObject } from '../../resources/custom-objects/writes.ts';
import type { NewActivity } from '../../resources/deal-activities/writes.ts';
import type { NewDeal } from '../../resources/deals/writes.ts';
import type { SentEmail } from '../../resources/emails/writes.ts';
import type { NewLead } from '../../resources/leads/writes.ts';
import type { NewNote } from '../../resources/notes/writes.ts';
import type { NewOrganization } from '../../resources/organizations/writes.ts';
import type { NewPerson } from '../../resources/people/writes.ts';
import type { PeopleChange } from '../../resources/people-history/writes.ts';
import type { NewPipeline } from '../../resources/pipelines/writes.ts';
import type { NewProduct } from '../../resources/products/writes.ts';
import type { NewQuote } from '../../resources/quotes/writes.ts';
import type { RecordChange } from '../../resources/record-history/writes.ts';
import type {
  NewEnrollment,
  NewSequenceStep,
  NewTimelineEvent,
} from '../../resources/sequences/writes.ts';
import type { NewTodo } from '../../resources/todos/writes.ts';
import type { NewSubmission, NewWebForm } from '../../resources/web-forms/writes.ts';
import type { NewTeam, NewUser } from '../../resources/workspaces/writes.ts';
import type { DemoDefinition } from './custom-objects.ts';
import type { EmailDraft } from './emails.ts';
import { DAY, DemoIds, mix32, Random } from './random.ts';
import type { DemoRecording } from './recordings.ts';
import * as words from './words.ts';

/** A sequence row (sequences take no id through `insertSequences`, so the demo writes them). */
export interface DemoSequence {
  id: string;
  name: string;
  description: string;
  createdAt: string;
}

/** Everything a demo workspace holds, ids included, ready for the insert functions. */
export interface DemoData {
  workspaceName: string;
  adminUserId: string;
  users: NewUser[];
  teams: NewTeam[];
  pipelines: NewPipeline[];
  customFields: NewCustomField[];
  products: NewProduct[];
  organizations: NewOrganization[];
  people: NewPerson[];
  deals: NewDeal[];
  leads: NewLead[];
  quotes: NewQuote[];
  notes: NewNote[];
  todos: NewTodo[];
  webForms: NewWebForm[];
  submissions: NewSubmission[];
  sequences: DemoSequence[];
  enrollments: NewEnrollment[];
  sequenceSteps: NewSequenceStep[];
  /** What happened in the enrollments: their steps' e-mails sent, opened, clicked, answered. */
  sequenceTimeline: NewTimelineEvent[];
  activities: NewActivity[];
  /** Recordings of meetings, each with its audio and its `recordingCreate` activity. */
  recordings: DemoRecording[];
  /** The e-mails the `email` activities name. */
  emails: SentEmail[];
  history: PeopleChange[];
  /** History rows of deals, leads and organizations. */
  recordHistory: RecordChange[];
  /** Custom object definitions (first chunk) and records. */
  customObjectDefinitions: DemoDefinition[];
  customObjects: NewCustomObject[];
}

/** Days of history the demo spans, ending at its base date. */
const SPAN_DAYS = 730;

/**
 * The demo's "now": a date in 2025 picked by the seed, 18:00 in Korea. Fixed, so that the
 * same seed gives the same data on any day.
 */
export function demoBaseTime(seed: number): number {
  return Date.UTC(2025, 0, 1, 9) + (mix32(seed) % 365) * DAY;
}

export interface OrgInfo {
  id: string;
  name: string;
  shortName: string;
  domain: string;
  industry: string;
  createdMs: number;
  ownerId: string;
  peopleIdx: number[];
}

export interface PersonInfo {
  id: string;
  name: string;
  givenRoman: string;
  surRoman: string;
  title: string | null;
  baseTitle: string | null;
  org: OrgInfo | null;
  email: string | null;
  phone: string | null;
  createdMs: number;
  ownerId: string;
  input: NewPerson;
}

export interface RecordInfo {
  kind: 'deal' | 'lead';
  id: string;
  name: string;
  person: PersonInfo;
  org: OrgInfo | null;
  createdMs: number;
  /** When the record stopped changing: its close, or the base date. */
  endMs: number;
  closedMs: number | null;
  outcome: DealOutcome | null;
  stageIndex: number;
  ownerId: string;
  input: NewDeal | NewLead;
}

export interface ProductInfo {
  id: string;
  kind: ProductKind;
  name: string;
  code: string;
  price: number;
  unit: string;
  category: string;
}

export function emptyDemoData(): DemoData {
  return {
    workspaceName: words.SELLER.workspaceName,
    adminUserId: '',
    users: [],
    teams: [],
    pipelines: [],
    customFields: [],
    products: [],
    organizations: [],
    people: [],
    deals: [],
    leads: [],
    quotes: [],
    notes: [],
    todos: [],
    webForms: [],
    submissions: [],
    sequences: [],
    enrollments: [],
    sequenceSteps: [],
    sequenceTimeline: [],
    activities: [],
    recordings: [],
    emails: [],
    history: [],
    recordHistory: [],
    customObjectDefinitions: [],
    customObjects: [],
  };
}

/**
 * The state of one demo's generation: the seeded sequences, the timeline, the chunk being
 * generated and its output, the workspace structure the records refer to, and the records
 * of the chunk so far.
 */
export class DemoContext {
  readonly r: Random;
  readonly ids: DemoIds;
  /**
   * Ids and draws of the recordings, a sequence of their own: the rest of the demo is the same
   * with them as without.
   */
  readonly recordingIds: DemoIds;
  readonly recordingRandom: Random;
  /** The demo's "now" (`demoBaseTime`). */
  readonly base: number;
  /** The start of the demo's history, `SPAN_DAYS` before `base`. */
  readonly start: number;
  out: DemoData;
  /** The chunk being generated; the first one holds the structure and the showcases. */
  chunk = 0;
  /** People in the chunk being generated. */
  chunkPeople = 0;
  /** Organizations generated in earlier chunks. */
  orgsBefore = 0;
  /** Chunks in all: each takes its slice of the timeline for its organizations and people. */
  chunks = 1;

  userIds: string[] = [];
  readonly userNames = new Map<string, string>();
  readonly userEmails = new Map<string, string>();
  /** The chunk's e-mails whose texts are still to draw (`generateEmails`). */
  emailDrafts: EmailDraft[] = [];
  dealPipelines: { id: string; stageIds: string[]; stages: readonly string[] }[] = [];
  leadPipelines: { id: string; stageIds: string[] }[] = [];
  /** Custom field ids by the demo's own key (`grade`, `industry`, ...). */
  readonly field: Record<string, string> = {};
  products: ProductInfo[] = [];
  readonly productById = new Map<string, ProductInfo>();
  catalog: { plans: ProductInfo[]; addOns: ProductInfo[]; services: ProductInfo[] } = {
    plans: [],
    addOns: [],
    services: [],
  };
  orgs: OrgInfo[] = [];
  persons: PersonInfo[] = [];
  deals: RecordInfo[] = [];
  leads: RecordInfo[] = [];
  webFormIds: string[] = [];
  sequenceIds: string[] = [];
  /** The steps of each sequence, in order (the first chunk draws them). */
  readonly sequenceSteps = new Map<string, NewSequenceStep[]>();

  readonly usedCompanyNames = new Set<string>();
  readonly usedEmails = new Set<string>();
  readonly usedPhones = new Set<string>();

  constructor(
    seed: number,
    readonly peopleCount: number,
  ) {
    this.r = new Random(seed);
    this.ids = new DemoIds(seed);
    this.recordingIds = new DemoIds(seed ^ 0x2c1b3c6d);
    this.recordingRandom = new Random(seed ^ 0x2c1b3c6d);
    this.base = demoBaseTime(seed);
    this.start = this.base - SPAN_DAYS * DAY;
    this.out = emptyDemoData();
  }

  /** A record's owner: one of the users, drawn. */
  ownerId(): string {
    // The admin owns fewer records than the sales reps.
    return this.r.weighted(this.userIds, (id) => (id === this.userIds[0] ? 1 : 4));
  }

  /**
   * The chunk's slice of `[start, end]`: chunk k of n creates its organizations and people
   * in the k-th n-th of the timeline, so a large demo is written in time order across chunks
   * (as a workspace filled over the years would be), and a page of people in list order lies
   * on a few neighbouring database pages. One chunk takes the whole span.
   */
  chunkWindow(end: number): [number, number] {
    const width = (end - this.start) / this.chunks;
    const from = this.start + this.chunk * width;
    return [from, this.chunk === this.chunks - 1 ? end : from + width];
  }
}

export function pad4(n: number): string {
  return String(n).padStart(4, '0');
}

/** Replaces `{key}` placeholders. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
