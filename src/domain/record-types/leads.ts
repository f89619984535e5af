/**
 * The lead record (리드), declared once (docs/architecture.md, Record types): the deal's shape,
 * `금액` and `상태` written in `fieldList`, `상태` `New` until set.
 */
import { column, declareRecordType } from './declaration.ts';
import { pipelineRecordKeys, STATUS_DESCRIPTION } from './pipeline-records.ts';

/** A lead's `상태` when no label was set. */
export const DEFAULT_LEAD_STATUS = 'New';

export const LEAD = declareRecordType({
  type: 'lead',
  linkColumn: 'lead_id',
  keys: pipelineRecordKeys({
    pipelineRequired: false,
    amount: column('금액', 'amount', 'optionalNumber', 'fieldList'),
    status: column('상태', 'label', 'text', 'fieldList', {
      otherwise: { value: DEFAULT_LEAD_STATUS },
      description: STATUS_DESCRIPTION,
    }),
  }),
  facts: ['mainQuoteProducts', 'lastEmailOpenAt', 'note', 'submissions', 'enrollments', 'todos'],
  customFields: true,
  closingKeys: 'stageTimes',
});
