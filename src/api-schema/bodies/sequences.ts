import { type Static, Type } from '@sinclair/typebox';
import { IdSchema } from './common.ts';

/** Body of `POST /v2/sequence/{sequenceId}/enrollment`: the person to enroll. */
export const EnrollBody = Type.Object({ peopleId: IdSchema });
export type EnrollBody = Static<typeof EnrollBody>;
