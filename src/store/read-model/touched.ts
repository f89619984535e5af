import type { RenderedType } from './rendered-types.ts';

/** The record types that count deals and leads: people and organizations. */
export type CountingType = 'people' | 'organization';

/**
 * The records a write changed, directly or through what they derive from (docs/decisions.md,
 * Derived fields). Writers mark them; the read model re-renders them before the transaction
 * commits.
 */
export class Touched {
  readonly ids: Record<RenderedType, Set<string>> = {
    people: new Set(),
    organization: new Set(),
    deal: new Set(),
    lead: new Set(),
    product: new Set(),
    quote: new Set(),
    customObject: new Set(),
  };
  /** Records the write created (and marked). */
  readonly created: Record<RenderedType, Set<string>> = {
    people: new Set(),
    organization: new Set(),
    deal: new Set(),
    lead: new Set(),
    product: new Set(),
    quote: new Set(),
    customObject: new Set(),
  };
  /**
   * @param keepsInserted Whether the rows of created records are kept (`inserted`): in a
   *   write of the API, not in the hand-built writes of an import or a new demo, which
   *   create records by the million.
   */
  constructor(readonly keepsInserted = false) {}

  /**
   * Rows of created records as their insert returned them (PostgreSQL's `returning`), by
   * id: what the refresh renders them from while their table is not changed again.
   */
  readonly inserted: Record<RenderedType, Map<string, unknown>> = {
    people: new Map(),
    organization: new Map(),
    deal: new Map(),
    lead: new Map(),
    product: new Map(),
    quote: new Map(),
    customObject: new Map(),
  };
  /** Types whose every record must be re-rendered (a custom field definition changed). */
  readonly allOf = new Set<RenderedType>();
  /**
   * People and organizations of which the write changed nothing but their deal and lead
   * counts (a deal or lead linked to them was created, moved to or from them, or changed
   * outcome): their stored JSON gets the counts read afresh (`recount.ts`) instead of a
   * whole new rendering. One also marked by `mark` is rendered in full.
   */
  readonly counted: Record<CountingType, Set<string>> = {
    people: new Set(),
    organization: new Set(),
  };

  /** Marks a record (null ids are ignored, for optional links). */
  mark(type: RenderedType, id: string | null | undefined): this {
    if (id) this.ids[type].add(id);
    return this;
  }

  /** Marks a record the write has just created (`row`: as its insert returned it, if it did). */
  markCreated(type: RenderedType, id: string, row?: unknown): this {
    this.created[type].add(id);
    if (row !== undefined && this.keepsInserted) this.inserted[type].set(id, row);
    return this.mark(type, id);
  }

  /** Marks a record whose deal and lead counts alone may have changed (null ids are ignored). */
  markCounts(type: CountingType, id: string | null | undefined): this {
    if (id) this.counted[type].add(id);
    return this;
  }

  /** Marks every record of a type. */
  markAll(type: RenderedType): this {
    this.allOf.add(type);
    return this;
  }

  get isEmpty(): boolean {
    return (
      this.allOf.size === 0 &&
      Object.values(this.ids).every((s) => s.size === 0) &&
      Object.values(this.counted).every((s) => s.size === 0)
    );
  }
}
