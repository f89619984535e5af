/**
 * The deal record (딜), declared once (docs/architecture.md, Record types): the keys deals and
 * leads share, the stage timing keys after them, and the four keys only `GET /v2/deal/{dealId}`
 * shows (docs/decisions.md, Record keys and Derived fields).
 */
import { column, declareRecordType, singleRecordKey } from './declaration.ts';
import { pipelineRecordKeys, STATUS_DESCRIPTION } from './pipeline-records.ts';

export const DEAL = declareRecordType({
  type: 'deal',
  linkColumn: 'deal_id',
  keys: pipelineRecordKeys({
    pipelineRequired: true,
    amount: column('금액', 'amount', 'optionalNumber', 'body', { bodyKey: 'price' }),
    // The label, which follows the outcome until one is set.
    status: column('상태', 'label', 'text', 'body', {
      bodyKey: 'status',
      required: true,
      otherwise: { column: 'outcome' },
      description: STATUS_DESCRIPTION,
    }),
  }),
  facts: ['mainQuoteProducts', 'lastEmailOpenAt', 'note', 'submissions', 'enrollments', 'todos'],
  customFields: true,
  closingKeys: 'stageTimes',
  singleRecordKeys: [
    singleRecordKey('상담 일수', 'count', 'number', 'derived', {
      description: 'Whole days since creation',
    }),
    singleRecordKey('정체 일수', 'count', 'number', 'derived', {
      description: 'Whole days in the current stage',
    }),
    singleRecordKey('팔로워', 'optionalRefs', 'multiUser', 'fieldList', { column: 'follower_ids' }),
    singleRecordKey('참여자', 'optionalRefs', 'multiPeople', 'fieldList', {
      column: 'participant_ids',
    }),
  ],
});
