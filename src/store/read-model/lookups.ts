import type {
  CustomFieldDefinition,
  CustomFieldRecordType,
  NamedTarget,
} from '../../domain/custom-fields.ts';
import type { Ref } from '../../domain/records.ts';
import type { StageKeys } from '../../domain/stage-times.ts';
import { columnById } from '../by-id.ts';
import { type Catalog, type CatalogTarget, loadCatalog, readCatalogVersion } from '../catalog.ts';
import type { Executor } from '../database.ts';

type Target = NamedTarget | CatalogTarget;

const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
  customObject: 'custom_objects',
  file: 'files',
} as const;

/**
 * Names of the records that rendered records refer to, for one workspace: those of its
 * catalog (users, teams, pipelines, stages, web forms, sequences, products, custom field
 * definitions), and people, organization and deal names fetched in batches when a custom
 * field refers to them, or added by an import that has them already.
 */
export class Lookups {
  /** Names beside the catalog's, which is shared and never changed. */
  private readonly names = new Map<Target, Map<string, string>>();

  constructor(
    private readonly db: Executor,
    readonly workspaceId: string,
    private readonly catalog: Catalog,
  ) {}

  /** Reads the workspace's catalog afresh. */
  static async load(db: Executor, workspaceId: string): Promise<Lookups> {
    const version = await readCatalogVersion(db, workspaceId);
    return new Lookups(db, workspaceId, await loadCatalog(db, workspaceId, version));
  }

  /** Custom field definitions of a record type, in definition order. */
  definitions(recordType: CustomFieldRecordType): CustomFieldDefinition[] {
    return (this.catalog.fields.get(recordType) as CustomFieldDefinition[] | undefined) ?? [];
  }

  /** The stage timing keys of deals or leads, in order. */
  stageKeys(kind: 'deal' | 'lead'): readonly StageKeys[] {
    return this.catalog.stageKeys.get(kind) ?? [];
  }

  /** Display name of a referenced record, or undefined when it is unknown. */
  nameOf = (target: Target, id: string): string | undefined =>
    this.names.get(target)?.get(id) ?? this.catalog.names.get(target as CatalogTarget)?.get(id);

  /** `{id, name}` of a referenced record (name `''` if the record is gone). */
  ref(target: Target, id: string): Ref {
    return { id, name: this.nameOf(target, id) ?? '' };
  }

  /** The Ref of a user, or null for no user. */
  userRef(id: string | null): Ref | null {
    return id === null ? null : this.ref('user', id);
  }

  /** Refs of the teams in a JSON array of team ids. */
  teamRefs(teamIdsJson: string): Ref[] {
    const ids = JSON.parse(teamIdsJson) as string[];
    return ids.map((id) => this.ref('team', id));
  }

  /**
   * Names of records known without reading them (an import's own records, not written yet):
   * `ensure` reads only the others. A target with no names yet takes `names` itself.
   */
  addNames(
    target: 'people' | 'organization' | 'deal' | 'product',
    names: Map<string, string>,
  ): void {
    const known = this.names.get(target);
    if (!known) this.names.set(target, names);
    else for (const [id, name] of names) known.set(id, name);
  }

  /**
   * Loads names of people, organizations, deals, custom objects or files not yet known (for
   * custom Ref and attachment fields).
   */
  async ensure(targets: Map<NamedTarget, Set<string>>): Promise<void> {
    for (const [target, ids] of targets) {
      if (!(target in TABLE_OF)) continue;
      const table = TABLE_OF[target as keyof typeof TABLE_OF];
      let known = this.names.get(target);
      if (!known) {
        known = new Map();
        this.names.set(target, known);
      }
      const missing = [...ids].filter((id) => !known!.has(id));
      const names = await columnById<string>(this.db, table, this.workspaceId, missing, 'name');
      for (const [id, name] of names) known.set(id, name);
    }
  }
}
