/** A pulled record as the API answers it, its Refs (`{id, name}`) read as ids, and a line made of it. */

/** A record as the API answers it. */
export type Rec = Record<string, unknown>;

/** The id of a Ref, or null. */
export const refId = (v: unknown): string | null => (v as { id?: string } | null)?.id ?? null;

/** The ids of a list of Refs (none for null). */
export const refIds = (v: unknown): string[] =>
  Array.isArray(v) ? (v as { id: string }[]).map((r) => r.id) : [];

/** One line of the workspace format (`docs/import-format.md`). */
export type Line = Rec & { type: string };
