/**
 * Activity `type`s: the ten the demo and the writes make (docs/architecture.md), then the
 * five more the live API's activity lists know. New ones go last: a cursor binds the `types`
 * filter in this order.
 */
export const ACTIVITY_TYPES = [
  'create',
  'email',
  'emailOpen',
  'memoCreate',
  'todoCreate',
  'meeting',
  'webFormSubmit',
  'recordingCreate',
  'smsSend',
  'kakaoAlimtalkSend',
  'webFormView',
  'emailLinkClick',
  'documentView',
  'merge',
  'modusignContractCreated',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
