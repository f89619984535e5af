import type {
  CustomFieldDefinition,
  CustomFieldRecordType,
  CustomFieldType,
  RefTarget,
  SelectOption,
} from '../../domain/custom-fields.ts';
import type { Ref } from '../../domain/records.ts';
import { columnById } from '../by-id.ts';
import type { Executor } from '../database.ts';

type Target = RefTarget | 'team' | 'product';

const TABLE_OF = {
  people: 'people',
  organization: 'organizations',
  deal: 'deals',
} as const;

/**
 * Names of the records that rendered records refer to, for one workspace. The small tables
 * (users, teams, pipelines, stages, web forms, sequences, products, custom field
 * definitions) are read whole once; people, organization and deal names are fetched in
 * batches when a custom field refers to them.
 */
export class Lookups {
  private readonly names = new Map<Target, Map<string, string>>();
  private readonly fields = new Map<string, CustomFieldDefinition[]>();

  private constructor(
    private readonly db: Executor,
    readonly workspaceId: string,
  ) {}

  /** Reads the workspace's small tables. */
  static async load(db: Executor, workspaceId: string): Promise<Lookups> {
    const l = new Lookups(db, workspaceId);
    const ws = workspaceId;
    const byName = async (
      target: Target,
      table:
        | 'users'
        | 'teams'
        | 'pipelines'
        | 'pipeline_stages'
        | 'web_forms'
        | 'sequences'
        | 'products',
    ) => {
      const rows = await db
        .selectFrom(table)
        .select(['id', 'name'])
        .where('workspace_id', '=', ws)
        .execute();
      l.names.set(target, new Map(rows.map((r) => [r.id, r.name])));
    };
    await byName('user', 'users');
    await byName('team', 'teams');
    await byName('pipeline', 'pipelines');
    await byName('pipelineStage', 'pipeline_stages');
    await byName('webForm', 'web_forms');
    await byName('sequence', 'sequences');
    await byName('product', 'products');
    const defs = await db
      .selectFrom('custom_fields')
      .selectAll()
      .where('workspace_id', '=', ws)
      .orderBy('record_type')
      .orderBy('position')
      .orderBy('id')
      .execute();
    for (const d of defs) {
      const def: CustomFieldDefinition = {
        id: d.id,
        recordType: d.record_type as CustomFieldRecordType,
        name: d.name,
        type: d.type as CustomFieldType,
        required: d.required === 1,
        options: d.options ? (JSON.parse(d.options) as SelectOption[]) : null,
      };
      const list = l.fields.get(d.record_type);
      if (list) list.push(def);
      else l.fields.set(d.record_type, [def]);
    }
    return l;
  }

  /** Custom field definitions of a record type, in definition order. */
  definitions(recordType: CustomFieldRecordType): CustomFieldDefinition[] {
    return this.fields.get(recordType) ?? [];
  }

  /** Display name of a referenced record, or undefined when it is unknown. */
  nameOf = (target: Target, id: string): string | undefined => this.names.get(target)?.get(id);

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

  /** Loads names of people, organizations or deals not yet known (for custom Ref fields). */
  async ensure(targets: Map<RefTarget, Set<string>>): Promise<void> {
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
