/** The people record (고객), declared once (docs/architecture.md, Record types). */
import { column, declareRecordType, derived, group } from './declaration.ts';

export const PEOPLE = declareRecordType({
  type: 'people',
  linkColumn: 'people_id',
  keys: [
    column('id', 'id', 'id', 'service'),
    column('organizationId', 'organization_id', 'optionalId', 'body', {
      bodyKey: 'organizationId',
    }),
    column('이름', 'name', 'text', 'body', { bodyKey: 'name', required: true }),
    column('이메일', 'email', 'optionalText', 'fieldList'),
    column('전화', 'phone', 'optionalText', 'fieldList'),
    column('포지션', 'job_title', 'optionalText', 'fieldList'),
    column('프로필 사진', 'profile_image', 'optionalText', 'fieldList'),
    column('링크드인', 'linkedin', 'optionalText', 'fieldList'),
    group('dealCounters'),
    group('note'),
    group('webForm'),
    group('sequence'),
    column('수신 거부 여부', 'unsubscribed', 'flag', 'fieldList'),
    column('수신 거부 사유', 'unsubscribe_reason', 'optionalText', 'fieldList'),
    group('ownership'),
    group('todo'),
    derived('제출된 웹폼 목록', 'submittedForms', 'refs', 'multiWebForm'),
    derived('등록된 시퀀스 목록', 'enrolledSequences', 'optionalRefs', 'multiSequence'),
  ],
  facts: ['counts', 'note', 'submissions', 'enrollments', 'todos'],
  customFields: true,
});
