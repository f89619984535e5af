import { type Static, Type } from '@sinclair/typebox';
import { IdSchema } from './common.ts';

/**
 * Body of `POST /v2/{people|organization|lead|deal}/{id}/merge` (docs/decisions.md, Merges): the
 * record merged into the path's record, and deleted.
 */
export const MergeBody = Type.Object({ mergedId: IdSchema });
export type MergeBody = Static<typeof MergeBody>;
