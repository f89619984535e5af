/** What `salescrm verify` does (`verify.ts` declares it; imported when it runs). */
import type { Config } from '../config.ts';
import type { IndexDifference } from '../store/read-model/search-index.ts';
import {
  type BodyDifference,
  firstDifference,
  type VerifyReport,
  verifyWorkspace,
} from '../store/read-model/verify.ts';
import { knownWorkspace } from './known-workspace.ts';
import { withStore } from './with-store.ts';

const WIDTH = 60;

/**
 * `salescrm verify --workspace ID [--repair]`: renders every record of the workspace again
 * from its base tables and compares it with its stored JSON; prints one line per difference
 * and a summary. Exit code 0 when none differ (or every one was repaired), 1 otherwise.
 */
export async function runVerify(
  config: Config,
  values: { workspace: string; repair?: boolean },
): Promise<number> {
  const workspaceId = values.workspace;
  return withStore(config, async (store) => {
    if (!(await knownWorkspace(store, workspaceId))) return 1;
    const started = performance.now();
    const report = await verifyWorkspace(store, workspaceId, {
      repair: values.repair,
      onDifference: (d) => console.log(differenceLine(d)),
      onIndexDifference: (d) => console.log(indexDifferenceLine(d)),
    });
    console.log(summaryLine(report, values.repair === true, (performance.now() - started) / 1000));
    return report.differences === report.repaired &&
      report.indexDifferences === report.indexRepaired
      ? 0
      : 1;
  });
}

/** `people ID 이름: stored "…" rendered "…"`, values shortened. */
export function differenceLine(d: BodyDifference): string {
  const where = firstDifference(d.stored, d.rendered);
  return `${d.type} ${d.id} ${where.key}: stored ${shown(where.stored)} rendered ${shown(where.rendered)}`;
}

/** `people ID search index: 2 rows missing, 1 extra (생일 "1990-01-01")`. */
export function indexDifferenceLine(d: IndexDifference): string {
  const first = d.missing[0] ?? d.extra[0] ?? '';
  const [key, value] = first.split('\u0000');
  return `${d.type} ${d.id} search index: ${d.missing.length} rows missing, ${d.extra.length} extra (${key} ${shown(value)})`;
}

function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > WIDTH ? `${text.slice(0, WIDTH - 1)}…` : text;
}

function summaryLine(report: VerifyReport, repair: boolean, seconds: number): string {
  const counts = Object.entries(report.checked)
    .map(([type, n]) => `${type} ${n}`)
    .join(', ');
  const total = Object.values(report.checked).reduce((a, b) => a + b, 0);
  const found = report.differences === 1 ? '1 difference' : `${report.differences} differences`;
  const repaired = repair && report.differences > 0 ? `, ${report.repaired} repaired` : '';
  const index =
    report.indexDifferences === 0
      ? ''
      : `; search index: ${report.indexDifferences} records differ${repair ? `, ${report.indexRepaired} repaired` : ''}`;
  return `verified ${total} records (${counts}) in ${seconds.toFixed(2)} s: ${found}${repaired}${index}`;
}
