/**
 * The people and organization records (docs/decisions.md, Record keys) with their exact keys in
 * wire order, then the workspace's custom fields. `test/record-schemas.test.ts` checks them against
 * the render functions.
 */
import type { Static } from '@sinclair/typebox';
import { ORGANIZATION } from '../../domain/record-types/organizations.ts';
import { PEOPLE } from '../../domain/record-types/people.ts';
import { WithCustomFields } from './common.ts';
import { declaredProperties } from './declared.ts';

/**
 * The people record (docs/decisions.md, Record keys) of `GET /v2/people` and
 * `GET /v2/people/{peopleId}`, its keys as `src/domain/record-types/people.ts` declares them.
 */
export const PeopleRecord = WithCustomFields(
  declaredProperties(PEOPLE),
  'A person (고객), then the workspace’s people custom fields',
);
export type PeopleRecord = Static<typeof PeopleRecord>;

/** The organization record (docs/decisions.md, Record keys), as `src/domain/record-types/organizations.ts` declares it. */
export const OrganizationRecord = WithCustomFields(
  declaredProperties(ORGANIZATION),
  'An organization (회사), then the workspace’s organization custom fields',
);
export type OrganizationRecord = Static<typeof OrganizationRecord>;
