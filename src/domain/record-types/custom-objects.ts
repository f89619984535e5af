/**
 * A custom object record (docs/decisions.md, Other resources), declared once
 * (docs/architecture.md, Record types): `RecordId` is its number within its definition, `이름`
 * its 대표 field, and the custom fields that follow are those of its own definition.
 */
import { column, declareRecordType, group } from './declaration.ts';

export const CUSTOM_OBJECT = declareRecordType({
  type: 'customObject',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('customObjectDefinitionId', 'definition_id', 'id', 'body', {
      bodyKey: 'customObjectDefinitionId',
    }),
    column('RecordId', 'record_number', 'positiveInteger', 'service', {
      description: 'Its number within its definition, from 1, in creation order',
    }),
    column('이름', 'name', 'text', 'fieldList', {
      required: true,
      description: 'The 대표 field: the record’s name',
    }),
    column('파이프라인', 'pipeline_id', 'optionalRef', 'body', {
      bodyKey: 'pipelineId',
      field: 'pipeline',
      refersTo: 'pipeline',
    }),
    column('파이프라인 단계', 'stage_id', 'optionalRef', 'body', {
      bodyKey: 'pipelineStageId',
      field: 'pipelineStage',
      refersTo: 'pipelineStage',
    }),
    group('note'),
    group('ownership'),
    group('todo'),
  ],
  facts: ['note', 'todos'],
  customFields: true,
  customFieldsOf: 'definition',
});
