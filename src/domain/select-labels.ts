/**
 * The live API's built-in selects that read as codes and are written by their Korean
 * labels: a product's `상태`, a deal's `구독 시작 유형` and `구독 종료 유형`, a quote's
 * `할인 유형` (a quote product's `할인 유형` takes the code, as there). Programs written for
 * it send the labels; where a workspace has these fields, with the codes as options, a
 * write may give either, and the code is kept (reads stay codes).
 */
import type { CustomFieldRecordType } from './custom-fields.ts';

const SUBSCRIPTION = {
  신규: 'newBusiness',
  업그레이드: 'upgrade',
  다운그레이드: 'downgrade',
  갱신: 'renewal',
  이탈: 'churned',
};

/** Label → code of each such select, by record type and field name. */
const SELECT_LABELS: Partial<
  Record<CustomFieldRecordType, Readonly<Record<string, Readonly<Record<string, string>>>>>
> = {
  product: { 상태: { 활성: 'active', 비활성: 'inactive' } },
  deal: { '구독 시작 유형': SUBSCRIPTION, '구독 종료 유형': SUBSCRIPTION },
  quote: { '할인 유형': { '%': 'percentage', 원: 'fixed' } },
};

/** The labels of a field of the record type that writes by label, if it is one. */
export function selectLabelsOf(
  recordType: CustomFieldRecordType,
  fieldName: string,
): Readonly<Record<string, string>> | undefined {
  const labels = SELECT_LABELS[recordType];
  return labels && Object.hasOwn(labels, fieldName) ? labels[fieldName] : undefined;
}

/**
 * The value to keep for `value` written to a select with these `options`: the code of a
 * label, when the label is no option itself and its code is one; else `value` as it is.
 */
export function codeOfLabel(
  labels: Readonly<Record<string, string>>,
  options: readonly string[] | null,
  value: string,
): string {
  if (!options || options.includes(value) || !Object.hasOwn(labels, value)) return value;
  const code = labels[value]!;
  return options.includes(code) ? code : value;
}
