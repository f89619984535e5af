/**
 * The demo's custom objects (docs/decisions.md, Other resources): two definitions, 계약서 (contracts
 * of won deals and of some late open ones) and 티켓 (support tickets on a pipeline of their own),
 * their records linked to deals through a `딜` field. Drawn after every other record of the chunk,
 * so the rest of the demo is as it was without them.
 */
import type { NewCustomField } from '../../resources/custom-fields/writes.ts';
import type { NewCustomObject } from '../../resources/custom-objects/writes.ts';
import type { NewPipeline } from '../../resources/pipelines/writes.ts';
import type { DemoContext } from './context.ts';
import { DAY, iso, workTime } from './random.ts';
import { sortByTime } from './sort-by-time.ts';

/** A custom object definition of the demo, with its fields and its pipeline. */
export interface DemoDefinition {
  id: string;
  name: string;
  position: number;
  createdAt: string;
  pipeline: NewPipeline | null;
  fields: NewCustomField[];
}

const CONTRACT_STATES = ['초안', '검토중', '서명 완료', '만료'] as const;
const TICKET_KINDS = ['문의', '장애', '요청'] as const;
const PRIORITIES = ['낮음', '보통', '높음', '긴급'] as const;
const TICKET_STAGES = ['접수', '처리중', '해결', '종료'] as const;
const TICKET_TITLES = [
  '로그인이 되지 않습니다',
  '데이터 내보내기 요청',
  '권한 설정 문의',
  '대시보드 로딩 지연',
  '이메일 연동 오류',
  '사용자 추가 요청',
  '청구서 재발행 요청',
  '모바일 앱 알림 누락',
  'API 토큰 재발급 문의',
  '필드 추가 방법 문의',
] as const;

/** The definitions' ids and what the records of the later chunks need of them. */
interface DemoDefinitions {
  contract: DemoDefinition;
  ticket: DemoDefinition;
  contractNumber: number;
  ticketNumber: number;
}

const definitionsOf = new WeakMap<DemoContext, DemoDefinitions>();

function field(
  ctx: DemoContext,
  definitionId: string,
  name: string,
  type: NewCustomField['type'],
  options?: readonly string[],
): NewCustomField {
  return {
    id: ctx.ids.next(ctx.start - 70 * DAY),
    recordType: 'customObject',
    customObjectDefinitionId: definitionId,
    name,
    type,
    ...(options ? { options: [...options] } : {}),
  };
}

function defineAll(ctx: DemoContext): DemoDefinitions {
  const ms = ctx.start - 70 * DAY;
  const contractId = ctx.ids.next(ms);
  const contract: DemoDefinition = {
    id: contractId,
    name: '계약서',
    position: 0,
    createdAt: iso(ms),
    pipeline: null,
    fields: [
      field(ctx, contractId, '딜', 'deal'),
      field(ctx, contractId, '계약 금액', 'number'),
      field(ctx, contractId, '계약 시작일', 'date'),
      field(ctx, contractId, '계약 종료일', 'date'),
      field(ctx, contractId, '계약 상태', 'singleSelect', CONTRACT_STATES),
    ],
  };
  const ticketId = ctx.ids.next(ms);
  const pipelineId = ctx.ids.next(ms);
  const ticket: DemoDefinition = {
    id: ticketId,
    name: '티켓',
    position: 1,
    createdAt: iso(ms),
    pipeline: {
      id: pipelineId,
      kind: 'customObject',
      name: '티켓 처리',
      stages: TICKET_STAGES.map((name) => ({ id: ctx.ids.next(ms), name })),
    },
    fields: [
      field(ctx, ticketId, '딜', 'deal'),
      field(ctx, ticketId, '티켓 유형', 'singleSelect', TICKET_KINDS),
      field(ctx, ticketId, '우선순위', 'singleSelect', PRIORITIES),
    ],
  };
  return { contract, ticket, contractNumber: 0, ticketNumber: 0 };
}

/** Day-precision `YYYY-MM-DD` of a time, as a `date` field stores it. */
function day(ms: number): string {
  return `${iso(ms).slice(0, 10)}T00:00:00.000Z`;
}

/**
 * The first chunk defines 계약서 and 티켓; every chunk adds a 계약서 for each won deal and
 * some open ones past their first stage, and 티켓s for about one deal in six.
 */
export function generateCustomObjects(ctx: DemoContext): void {
  const { r } = ctx;
  let defs = definitionsOf.get(ctx);
  if (!defs) {
    defs = defineAll(ctx);
    definitionsOf.set(ctx, defs);
    ctx.out.customObjectDefinitions.push(defs.contract, defs.ticket);
  }
  const { contract, ticket } = defs;
  const [dealField, amountField, startField, endField, stateField] = contract.fields.map(
    (f) => f.id!,
  );
  const [ticketDealField, kindField, priorityField] = ticket.fields.map((f) => f.id!);
  const stages = ticket.pipeline!.stages.map((s) => s.id!);
  const out: (NewCustomObject & { recordNumber: number })[] = [];
  for (const deal of ctx.deals) {
    const won = deal.outcome === 'Won';
    if (won || (deal.outcome === 'In progress' && deal.stageIndex >= 2 && r.chance(0.5))) {
      const ms =
        won && deal.closedMs !== null ? deal.closedMs : workTime(r, deal.createdMs, deal.endMs);
      const start = ms + r.int(1, 14) * DAY;
      const amount = (deal.input as { amount?: number | null }).amount ?? null;
      const id = ctx.ids.next(ms);
      out.push({
        id,
        definitionId: contract.id,
        recordNumber: 0,
        name: `${deal.name} 계약서`,
        ownerId: deal.ownerId,
        createdAt: iso(ms),
        updatedAt: iso(ms),
        custom: {
          [dealField!]: deal.id,
          ...(amount !== null ? { [amountField!]: amount } : {}),
          [startField!]: day(start),
          [endField!]: day(start + 365 * DAY),
          [stateField!]: won
            ? r.pick(['서명 완료', '서명 완료', '만료'])
            : r.pick(['초안', '검토중']),
        },
      });
      ctx.out.activities.push({
        id: ctx.ids.next(ms),
        subjectType: 'customObject',
        subjectId: id,
        type: 'create',
        date: iso(ms),
      });
    }
    if (r.chance(1 / 6)) {
      for (let n = r.int(1, 2); n > 0; n--) {
        const ms = workTime(r, deal.createdMs, Math.max(deal.createdMs, deal.endMs));
        const stage = r.int(0, stages.length - 1);
        const id = ctx.ids.next(ms);
        out.push({
          id,
          definitionId: ticket.id,
          recordNumber: 0,
          name: r.pick(TICKET_TITLES),
          pipelineId: ticket.pipeline!.id!,
          stageId: stages[stage]!,
          ownerId: deal.ownerId,
          createdAt: iso(ms),
          updatedAt: iso(stage === 0 ? ms : Math.min(ctx.base, ms + r.int(1, 10) * DAY)),
          custom: {
            [ticketDealField!]: deal.id,
            [kindField!]: r.pick(TICKET_KINDS),
            [priorityField!]: r.pick(PRIORITIES),
          },
        });
        ctx.out.activities.push({
          id: ctx.ids.next(ms),
          subjectType: 'customObject',
          subjectId: id,
          type: 'create',
          date: iso(ms),
        });
      }
    }
  }
  // RecordId follows creation time, as it does for records created through the API.
  sortByTime(out, (o) => o.createdAt!);
  for (const o of out) {
    if (o.definitionId === contract.id) o.recordNumber = ++defs.contractNumber;
    else o.recordNumber = ++defs.ticketNumber;
    ctx.out.customObjects.push(o);
  }
}
