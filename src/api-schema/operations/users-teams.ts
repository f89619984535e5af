/**
 * The users and teams of the workspace (tag Workspace): list users, the token's own user,
 * list teams.
 */
import { ListEnvelope, ObjectEnvelope } from '../envelopes.ts';
import { MeRecord, TeamRecord, UserRecord } from '../records/users-teams.ts';
import { type Operation, read } from './operation.ts';
import { page } from './parameters.ts';

/** In the order the OpenAPI document lists them. */
export const USER_TEAM_OPERATIONS: readonly Operation[] = [
  read('/v2/user', 'listUsers', 'List users', 'Workspace', ListEnvelope('userList', UserRecord), {
    query: page,
  }),
  read(
    '/v2/user/me',
    'getMe',
    'The token’s user and workspace',
    'Workspace',
    ObjectEnvelope('user', MeRecord),
  ),
  read(
    '/v2/me',
    'getMeShort',
    'The token’s user and workspace, as `GET /v2/user/me` (the path importers of the live API call)',
    'Workspace',
    ObjectEnvelope('user', MeRecord),
  ),
  read('/v2/team', 'listTeams', 'List teams', 'Workspace', ListEnvelope('teamList', TeamRecord), {
    query: page,
  }),
];
