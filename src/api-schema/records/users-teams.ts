/** The users (and the token's own user with its workspace) and teams of the workspace. */
import { type Static, Type } from '@sinclair/typebox';
import { Id, Ref, Timestamp } from '../primitives.ts';
import { Closed, optionalText, text } from './common.ts';

/** A user of `GET /v2/user`. */
export const UserRecord = Closed(
  {
    id: Id,
    name: text,
    status: text,
    email: text,
    role: text,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  'A user of the workspace',
);
export type UserRecord = Static<typeof UserRecord>;

/** The token's user of `GET /v2/user/me`; `room` is the workspace. */
export const MeRecord = Closed(
  {
    id: Id,
    name: text,
    status: text,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    room: Closed({ id: Id, name: text }, 'The workspace'),
  },
  'The user the token belongs to',
);
export type MeRecord = Static<typeof MeRecord>;

/** A team of `GET /v2/team`, members as user Refs. */
export const TeamRecord = Closed(
  { id: Id, name: text, description: optionalText, teammateList: Type.Array(Ref) },
  'A team and its members',
);
export type TeamRecord = Static<typeof TeamRecord>;
