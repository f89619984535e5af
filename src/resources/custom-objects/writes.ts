import type { StoredCustomValues } from '../../domain/custom-fields.ts';
import type { WorkspaceWrite } from '../../store/write.ts';
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
}

/**
 * Adds a record of a definition, numbered after the definition's last one (`RecordId`);
 * the workspace's write lock keeps the numbers unique. Returns its id.
 */
export async function insertCustomObject(w: WorkspaceWrite, o: NewCustomObject): Promise<string> {
  const last = await w.trx
    .selectFrom('custom_objects')
    .select((eb) => eb.fn.max('record_number').as('n'))
    .where('workspace_id', '=', w.workspaceId)
    .where('definition_id', '=', o.definitionId)
    .executeTakeFirst();
  const row = Object.assign(
    await ownedColumns(w, {
      id: o.id,
      ownerId: o.ownerId ?? null,
      custom: o.custom,
      createdAt: o.createdAt,
    }),
    {
      definition_id: o.definitionId,
      record_number: Number(last?.n ?? 0) + 1,
      name: o.name,
      pipeline_id: o.pipelineId ?? null,
      stage_id: o.stageId ?? null,
    },
  );
  await w.trx.insertInto('custom_objects').values(row).execute();
  w.touched.markCreated('customObject', row.id);
  return row.id;
}
