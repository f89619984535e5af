import type { TObject } from '@sinclair/typebox';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { sql } from 'kysely';
import { CreateDealBody } from '../api-schema/bodies/deals.ts';
import { CreateLeadBody } from '../api-schema/bodies/leads.ts';
import { CreateOrganizationBody } from '../api-schema/bodies/organizations.ts';
import { CreatePersonBody } from '../api-schema/bodies/people.ts';
import { type CustomFieldType, valueKeyOf } from '../domain/custom-fields.ts';
import { DomainError } from '../domain/errors.ts';
import { builtInField } from '../domain/field-catalogue.ts';
import { createDeal } from '../resources/deals/commands.ts';
import { customFieldsOf, type FieldListItem } from '../resources/fields/field-list.ts';
import { createLead } from '../resources/leads/commands.ts';
import { createOrganization } from '../resources/organizations/commands.ts';
import { SOURCE_IMPORT } from '../resources/owned.ts';
import { createPerson } from '../resources/people/commands.ts';
import { sqliteStatementOf } from '../store/sqlite-executors.ts';
import type { WorkspaceWrite } from '../store/write.ts';
import type { CsvType } from './csv-types.ts';

const KINDS = {
  people: { schema: CreatePersonBody, create: createPerson, table: 'people' },
  organization: {
    schema: CreateOrganizationBody,
    create: createOrganization,
    table: 'organizations',
  },
  deal: { schema: CreateDealBody, create: createDeal, table: 'deals' },
  lead: { schema: CreateLeadBody, create: createLead, table: 'leads' },
} as const satisfies Record<CsvType, { schema: TObject; create: unknown; table: string }>;

/** The CSV type a file name names (`people.csv`, `고객.csv`, `deals-2024.csv` ...), if any. */
export function csvTypeOfName(fileName: string): CsvType | undefined {
  const base = fileName.toLowerCase().replace(/^.*[\\/]/, '');
  if (/^(people|person|고객)/.test(base)) return 'people';
  if (/^(organization|organisation|회사)/.test(base)) return 'organization';
  if (/^(deal|딜)/.test(base)) return 'deal';
  if (/^(lead|리드)/.test(base)) return 'lead';
  return undefined;
}

/**
 * Imports CSV rows of one record type through the API's create commands, so every rule of
 * `POST /v2/<type>` applies (fieldList types and options, references, duplicates, required
 * fields). The header names the Korean fields (`이름,이메일,전화,...`, custom fields by name)
 * or body keys (`organizationId`, `pipelineId`, `price`, `메모` for `memo`). Each row runs in
 * a savepoint: a refused row leaves nothing behind.
 */
export class CsvImporter {
  private columns: ((body: Record<string, unknown>, cell: string) => string | undefined)[] = [];
  /** The header's own name of the column that sets each body key (`name` → `이름`). */
  private columnOfKey = new Map<string, string>();
  records = 0;
  private seq = 0;

  constructor(
    private readonly w: WorkspaceWrite,
    private readonly type: CsvType,
    private readonly actorId: string,
  ) {}

  /** Reads the header; returns the reason it is refused, or undefined. */
  async header(cells: string[]): Promise<string | undefined> {
    const kind = KINDS[this.type];
    const defs = await customFieldsOf(this.w.trx, this.w.workspaceId, this.type);
    const seen = new Set<string>();
    this.columns = [];
    this.columnOfKey = new Map();
    for (const raw of cells) {
      const name = raw.trim();
      if (seen.has(name)) return `column '${name}' appears twice`;
      seen.add(name);
      if (name === '이름' || name === 'name') {
        this.columnOfKey.set('name', name);
        this.columns.push((b, cell) => {
          b.name = cell;
          return undefined;
        });
        continue;
      }
      if (name === '메모' || name === 'memo') {
        this.columnOfKey.set('memo', name);
        this.columns.push((b, cell) => {
          b.memo = cell;
          return undefined;
        });
        continue;
      }
      const properties = kind.schema.properties as Record<string, unknown>;
      const property = name !== 'fieldList' ? properties[name] : undefined;
      if (property) {
        const numeric = JSON.stringify(property).includes('"number"');
        this.columns.push((b, cell) => {
          if (!numeric) b[name] = cell;
          else if (Number.isFinite(Number(cell))) b[name] = Number(cell);
          else return `'${name}' is not a number: '${cell}'`;
          return undefined;
        });
        continue;
      }
      const builtIn = builtInField(this.type, name);
      const def = defs.find((d) => d.name === name);
      const type = (def?.type ?? builtIn?.type) as CustomFieldType | undefined;
      if (!type) return `unknown column '${name}' (not a field of ${this.type})`;
      this.columns.push((b, cell) => {
        const value = cellValue(type, cell);
        if (typeof value === 'object' && value !== null && 'error' in value)
          return `'${name}': ${value.error}`;
        if (!b.fieldList) b.fieldList = [];
        (b.fieldList as FieldListItem[]).push({ name, [valueKeyOf(type)]: value });
        return undefined;
      });
    }
    if (!seen.has('이름') && !seen.has('name')) return `the header has no '이름' column`;
    return undefined;
  }

  /** The header's name of the column behind a body path (`/name`, `/fieldList/2/stringValue`). */
  private columnAt(path: string, body: Record<string, unknown>): string {
    const [key, index] = path.split('/').slice(1);
    if (key === 'fieldList' && index !== undefined) {
      const item = (body.fieldList as FieldListItem[] | undefined)?.[Number(index)];
      if (item) return item.name;
    }
    return this.columnOfKey.get(key ?? '') ?? key ?? '';
  }

  /** Imports one row; returns the reason it is refused, or undefined. */
  async row(cells: string[]): Promise<string | undefined> {
    if (cells.length !== this.columns.length)
      return `${cells.length} cells, the header has ${this.columns.length}`;
    const body: Record<string, unknown> = {};
    for (let i = 0; i < cells.length; i++) {
      if (cells[i] === '') continue;
      const reason = this.columns[i]!(body, cells[i]!);
      if (reason) return reason;
    }
    const kind = KINDS[this.type];
    if (!Value.Check(kind.schema, body)) {
      const e = Value.Errors(kind.schema, body).First()!;
      return `'${this.columnAt(e.path, body)}': ${
        e.type === ValueErrorType.ObjectRequiredProperty
          ? '값이 필요합니다'
          : `값이 올바르지 않습니다 (${e.message})`
      }`;
    }
    const savepoint = `csv_row_${++this.seq}`;
    await sql.raw(`savepoint ${savepoint}`).execute(this.w.trx);
    try {
      const written = await (
        kind.create as (w: WorkspaceWrite, a: string, b: unknown) => Promise<{ id: string }>
      )(this.w, this.actorId, body);
      const update = `update ${kind.table} set source = ? where workspace_id = ? and id = ?`;
      const statement = sqliteStatementOf(this.w.trx, update);
      if (statement) statement.run(SOURCE_IMPORT, this.w.workspaceId, written.id);
      else
        await this.w.trx
          .updateTable(kind.table as 'people')
          .set({ source: SOURCE_IMPORT })
          .where('workspace_id', '=', this.w.workspaceId)
          .where('id', '=', written.id)
          .execute();
      await sql.raw(`release ${savepoint}`).execute(this.w.trx);
      this.records++;
      return undefined;
    } catch (error) {
      await sql.raw(`rollback to ${savepoint}`).execute(this.w.trx);
      await sql.raw(`release ${savepoint}`).execute(this.w.trx);
      if (error instanceof DomainError) return error.message;
      throw error;
    }
  }
}

/**
 * A CSV cell as the value of a field of `type`: numbers, `true`/`false` (`예`/`아니오`,
 * `Y`/`N`), lists split on `;`, everything else as text (checked by the create command).
 */
function cellValue(type: CustomFieldType, cell: string): unknown {
  switch (type) {
    case 'number': {
      const n = Number(cell.replaceAll(',', ''));
      return Number.isFinite(n) ? n : { error: `not a number: '${cell}'` };
    }
    case 'boolean': {
      const v = cell.trim().toLowerCase();
      if (['true', 'y', 'yes', '예', '1'].includes(v)) return true;
      if (['false', 'n', 'no', '아니오', '0'].includes(v)) return false;
      return { error: `not true or false: '${cell}'` };
    }
    case 'multiSelect':
      return splitList(cell);
    default:
      if (type.startsWith('multi')) return splitList(cell);
      return cell;
  }
}

function splitList(cell: string): string[] {
  return cell
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
