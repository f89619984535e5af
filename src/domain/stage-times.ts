/**
 * The stage timing keys of deals and leads (the live API's): for every stage of every
 * pipeline of the record type, `<stage>(<pipeline>)로 진입한 날짜`, `…에서 보낸 누적 시간`
 * and `…에서 퇴장한 날짜`. A record keeps, per stage it has been in, when it last entered,
 * when it last left (null while it is there) and the milliseconds of its finished stays.
 */

/** One stage of a record: last entry, last exit (null while in it), finished stays in ms. */
export type StageVisit = [enteredAt: string, exitedAt: string | null, totalMs: number];
/** A record's stages, by stage id. */
export type StageTimes = Readonly<Record<string, StageVisit>>;

/** The three keys of one stage, as a record shows them. */
export interface StageKeys {
  stageId: string;
  entered: string;
  total: string;
  exited: string;
}

/** The keys of a stage of a pipeline. */
export function stageKeysOf(stageId: string, stage: string, pipeline: string): StageKeys {
  const prefix = `${stage}(${pipeline})`;
  return {
    stageId,
    entered: `${prefix}로 진입한 날짜`,
    total: `${prefix}에서 보낸 누적 시간`,
    exited: `${prefix}에서 퇴장한 날짜`,
  };
}

/** What a deal or lead row holds of its stages. */
export interface StageRow {
  stage_times: string | null;
  stage_id: string | null;
  stage_entered_at: string | null;
  created_at: string;
}

/**
 * A record's stage times: those stored at its stage changes, else (a record that never
 * changed stage: created, imported) its current stage since it entered it.
 */
export function stageTimesOf(row: StageRow): StageTimes {
  if (row.stage_times !== null) return JSON.parse(row.stage_times) as StageTimes;
  if (row.stage_id === null) return {};
  return { [row.stage_id]: [row.stage_entered_at ?? row.created_at, null, 0] };
}

/** The stage times after the record moves from stage `from` to stage `to` at `now`. */
export function afterStageChange(
  times: StageTimes,
  from: string | null,
  to: string | null,
  now: string,
): StageTimes {
  const out: Record<string, StageVisit> = { ...times };
  const left = from === null ? undefined : out[from];
  if (from !== null && left && left[1] === null) {
    const stay = Math.max(0, Date.parse(now) - Date.parse(left[0]));
    out[from] = [left[0], now, left[2] + stay];
  }
  if (to !== null) out[to] = [now, null, out[to]?.[2] ?? 0];
  return out;
}

/** Puts the stage keys on a record, in `keys` order: null for a stage it has not been in. */
export function putStageTimes(
  record: Record<string, unknown>,
  keys: readonly StageKeys[],
  times: StageTimes,
): void {
  for (const k of keys) {
    const visit = times[k.stageId];
    record[k.entered] = visit ? visit[0] : null;
    record[k.total] = visit ? visit[2] : null;
    record[k.exited] = visit ? visit[1] : null;
  }
}
