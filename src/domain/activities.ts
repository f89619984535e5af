/** Deal activity `type`s (DECISIONS 6). */
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
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];
