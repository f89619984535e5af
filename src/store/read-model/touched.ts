import type { RenderedType } from './rendered-types.ts';

/**
 * The records a write changed, directly or through what they derive from (DECISIONS 5).
 * Writers mark them; the read model re-renders them before the transaction commits.
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
  /** Types whose every record must be re-rendered (a custom field definition changed). */
  readonly allOf = new Set<RenderedType>();

  /** Marks a record (null ids are ignored, for optional links). */
  mark(type: RenderedType, id: string | null | undefined): this {
    if (id) this.ids[type].add(id);
    return this;
  }

  /** Marks a record the write has just created. */
  markCreated(type: RenderedType, id: string): this {
    this.created[type].add(id);
    return this.mark(type, id);
  }

  /** Marks every record of a type. */
  markAll(type: RenderedType): this {
    this.allOf.add(type);
    return this;
  }

  get isEmpty(): boolean {
    return this.allOf.size === 0 && Object.values(this.ids).every((s) => s.size === 0);
  }
}
