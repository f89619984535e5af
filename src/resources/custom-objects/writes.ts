import type { StoredCustomValues } from '../../domain/custom-fields.ts';
import { insertRecords, type WorkspaceWrite } from '../../store/write.ts';
import { ownedColumns } from '../owned.ts';

/** A custom object record to add. */
export interface NewCustomObject {
  id?: string;
  definitionId: string;
  name: string;
  pipelineId?: string | null;
  stageId?: string | null;
  ownerId?: string | null;
  custom?: StoredCustomValues;
  createdAt?: string;
  updatedAt?: string;
  /** `RecordId`; the definition's next number when not given. */
  recordNumber?: number;
}

/**
 * Adds a record of a definition, numbered after the definition's last one (`RecordId`);
 * the workspace's write lock keeps the numbers unique. Returns its id.
 */
export async function insertCustomObject(w: WorkspaceWrite, o: NewCustomObject): Promise<string> {
  let recordNumber = o.recordNumber;
  if (recordNumber === undefined) {
    const last = await w.trx
      .selectFrom('custom_objects')
      .select((eb) => eb.fn.max('record_number').as('n'))
      .where('workspace_id', '=', w.workspaceId)
      .where('definition_id', '=', o.definitionId)
      .executeTakeFirst();
    recordNumber = Number(last?.n ?? 0) + 1;
  }
  const [id] = await insertCustomObjects(w, [{ ...o, recordNumber }]);
  return id!;
}

/** Adds records that carry their `recordNumber` (an import's, the demo's); returns the ids. */
export async function insertCustomObjects(
  w: WorkspaceWrite,
  objects: (NewCustomObject & { recordNumber: number })[],
): Promise<string[]> {
  const rows = [];
  for (const o of objects) {
    rows.push(
      Object.assign(
        await ownedColumns(w, {
          id: o.id,
          ownerId: o.ownerId ?? null,
          custom: o.custom,
          createdAt: o.createdAt,
          updatedAt: o.updatedAt,
        }),
        {
          definition_id: o.definitionId,
          record_number: o.recordNumber,
          name: o.name,
          pipeline_id: o.pipelineId ?? null,
          stage_id: o.stageId ?? null,
        },
      ),
    );
  }
  await insertRecords(w, 'customObject', rows);
  return rows.map((r) => r.id);
}

/** A custom object definition to add (its fields are defined apart). */
export interface NewDefinitionRow {
  id: string;
  name: string;
  pipelineId: string | null;
  position: number;
  createdAt: string;
}

/** Adds a custom object definition's row. */
export async function insertDefinition(w: WorkspaceWrite, d: NewDefinitionRow): Promise<void> {
  await w.trx
    .insertInto('custom_object_definitions')
    .values({
      workspace_id: w.workspaceId,
      id: d.id,
      name: d.name,
      pipeline_id: d.pipelineId,
      position: d.position,
      created_at: d.createdAt,
    })
    .execute();
}
