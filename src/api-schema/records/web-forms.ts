/** The web forms of the workspace and their submissions. */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable, Timestamp } from '../primitives.ts';
import { Closed, count, optionalText, text } from './common.ts';

/** A web form of `GET /v2/webForm`. */
export const WebFormRecord = Closed(
  {
    id: Id,
    name: text,
    description: optionalText,
    status: text,
    viewCount: count,
    submitCount: count,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A web form',
);
export type WebFormRecord = Static<typeof WebFormRecord>;

/** A submission of `GET /v2/webForm/{webFormId}/submit`. */
export const WebFormSubmitRecord = Closed(
  {
    peopleId: Nullable(Id),
    organizationId: Nullable(Id),
    dealId: Nullable(Id),
    leadId: Nullable(Id),
    contents: Type.Array(Closed({ label: text, value: Type.Unknown() }, 'One answer of the form')),
    createdAt: Timestamp,
  },
  'A web-form submission',
);
export type WebFormSubmitRecord = Static<typeof WebFormSubmitRecord>;
