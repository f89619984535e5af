/**
 * The association reads (docs/decisions.md, Other resources): ids, or ids with the field that links
 * them.
 */
import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../primitives.ts';
import { Closed, text } from './common.ts';

/** An id of `associationIdList`. */
export const AssociationId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: 'The id of an associated record (or note)',
});
export type AssociationId = Static<typeof AssociationId>;

/** An item of `associationItemList`: the record and the name of the field that links it. */
export const AssociationItemRecord = Closed(
  { id: Id, label: text },
  'A record linked by a custom Ref field; `label` is the field’s name',
);
export type AssociationItemRecord = Static<typeof AssociationItemRecord>;
