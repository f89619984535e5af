/** The organization record (회사), declared once (docs/architecture.md, Record types). */
import { column, declareRecordType, derived, group } from './declaration.ts';

export const ORGANIZATION = declareRecordType({
  type: 'organization',
  linkColumn: 'organization_id',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('이름', 'name', 'text', 'body', { bodyKey: 'name', required: true }),
    column('이메일', 'email', 'optionalText', 'fieldList'),
    column('전화', 'phone', 'optionalText', 'fieldList'),
    column('프로필 사진', 'profile_image', 'optionalText', 'fieldList'),
    column('링크드인', 'linkedin', 'optionalText', 'fieldList'),
    group('dealCounters'),
    group('note'),
    group('webForm'),
    group('ownership'),
    group('todo'),
    derived('제출된 웹폼 목록', 'submittedForms', 'refs', 'multiWebForm'),
    // The sequences any of its people are enrolled in (docs/decisions.md, Derived fields).
    derived('등록된 시퀀스 목록', 'peopleSequences', 'refs', 'multiSequence'),
  ],
  facts: ['counts', 'note', 'submissions', 'sequences', 'todos'],
  customFields: true,
});
