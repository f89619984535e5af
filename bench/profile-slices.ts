// `npx tsx bench/profile-slices.ts PROFILE SLICES [--top 30] [--under REGEX]`: the server's
// time a create in the webhook part of `npm run bench:tenants`, with webhooks and without,
// from a CPU profile of the server (`BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=DIR'`)
// and the slices the bench logged (`BENCH_SLICE_LOG=SLICES`; its last line, or the line of
// the profile's process). The two kinds of slices take turns in one process, so a function's
// µs a create in each, side by side, say what a delivery adds and where: by part (the
// dispatcher, undici, the write's outbox part, the garbage collector…), then by function
// (its own time), the largest differences first. `--under REGEX` lists instead the
// functions called (at any depth) from a frame whose file or name matches REGEX.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface Profile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

interface SliceSpan {
  kind: 'without' | 'with';
  fromUs: number;
  toUs: number;
  creates: number;
}

type Kind = SliceSpan['kind'];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '30' }, under: { type: 'string' } },
});
const [profileFile, slicesFile] = positionals;
if (!profileFile || !slicesFile) {
  console.error('usage: bench/profile-slices.ts PROFILE SLICES [--top N] [--under REGEX]');
  process.exit(2);
}
const top = Number(values.top);
if (!Number.isInteger(top) || top < 1) fail(`--top is not a whole number ≥ 1: ${values.top}`);

/** Stops with one line on standard error (a file that is not what it should be). */
function fail(message: string): never {
  console.error(`profile-slices: ${message}`);
  process.exit(2);
}

/** A file's JSON lines (one document for the profile), or a line saying what is wrong. */
function readJson(file: string, lines: boolean): unknown[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  const parts = lines ? text.split('\n').filter((l) => l.trim() !== '') : [text];
  return parts.map((part, i) => {
    try {
      return JSON.parse(part);
    } catch {
      return fail(`${file}${lines ? `, line ${i + 1},` : ''} is not JSON`);
    }
  });
}

const profile = readJson(profileFile, false)[0] as Profile;
if (!Array.isArray(profile?.nodes) || !Array.isArray(profile.samples))
  fail(`${profileFile} is not a V8 CPU profile (.cpuprofile)`);
const logged = readJson(slicesFile, true) as { pid: number; variant: string; spans: SliceSpan[] }[];
if (logged.length === 0 || !logged.every((l) => Array.isArray(l?.spans)))
  fail(`${slicesFile} holds no slices (BENCH_SLICE_LOG of bench:tenants' webhook part)`);
// The profile's file name holds its process id (CPU.date.time.PID.…); else the last line.
const pid = /^CPU\.\d+\.\d+\.(\d+)\./.exec(profileFile.split('/').pop() ?? '')?.[1];
const log = logged.findLast((l) => String(l.pid) === pid) ?? logged.at(-1)!;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parentOf = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parentOf.set(c, n.id);

const creates: Record<Kind, number> = { without: 0, with: 0 };
for (const span of log.spans) creates[span.kind] += span.creates;
const kindAt = (us: number): Kind | undefined =>
  log.spans.find((s) => us >= s.fromUs && us < s.toUs)?.kind;

const where = (f: CallFrame) => f.url.replace(/.*\/(src|node_modules)\//, '$1/');
const nameOf = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'} ${where(f)}${f.url ? `:${f.lineNumber + 1}:${f.columnNumber + 1}` : ''}`;

/** The part of the server a sample's time goes to, by its stack (leaf first). */
function partOf(stack: CallFrame[]): string {
  const leaf = stack[0]!;
  if (!leaf.url && leaf.functionName.startsWith('(')) return leaf.functionName;
  const has = (pattern: RegExp) => stack.some((f) => pattern.test(f.url));
  if (has(/\/src\/dispatch\//)) return 'the dispatcher (and what it calls)';
  if (has(/\/src\/store\/outbox\//)) return "the write's outbox part";
  if (has(/\/undici\//)) return "undici (the answers' reading)";
  if (/^write(v|Buffer|String)$|^utf8Write$/.test(leaf.functionName)) return 'socket writes';
  if (/\/node_modules\/(pg|pg-protocol|kysely)\//.test(leaf.url)) return 'the database driver';
  if (/\/node_modules\/(fastify|find-my-way|light-my-request)\/|^node:_http/.test(leaf.url))
    return 'the HTTP server';
  return /\/src\//.test(leaf.url) ? 'the rest of src/' : 'the rest (Node.js, libraries)';
}

const under = values.under ? new RegExp(values.under) : undefined;
const parts: Record<Kind, Map<string, number>> = { without: new Map(), with: new Map() };
const own: Record<Kind, Map<string, number>> = { without: new Map(), with: new Map() };
const busy: Record<Kind, number> = { without: 0, with: 0 };
const add = (m: Map<string, number>, key: string, us: number) => m.set(key, (m.get(key) ?? 0) + us);

// Sample i was taken at startTime + the deltas up to i, and lasts until the next one.
let at = profile.startTime;
for (let i = 0; i < profile.samples.length; i++) {
  at += profile.timeDeltas[i]!;
  const lasts = profile.timeDeltas[i + 1] ?? 0;
  const kind = kindAt(at);
  if (!kind) continue;
  const stack: CallFrame[] = [];
  for (let id: number | undefined = profile.samples[i]; id !== undefined; id = parentOf.get(id))
    stack.push(byId.get(id)!.callFrame);
  if (stack[0]!.functionName === '(idle)') continue;
  busy[kind] += lasts;
  if (under && !stack.some((f) => under.test(`${f.url} ${f.functionName}`))) continue;
  add(parts[kind], partOf(stack), lasts);
  add(own[kind], nameOf(stack[0]!), lasts);
}

const perCreate = (us: number, kind: Kind) => us / Math.max(1, creates[kind]);
console.log(
  `${log.variant}: ${creates.without} creates without webhooks, ${creates.with} with; the server busy ${perCreate(busy.without, 'without').toFixed(0)} µs a create without, ${perCreate(busy.with, 'with').toFixed(0)} with`,
);

function table(title: string, maps: Record<Kind, Map<string, number>>, rows: number): void {
  const keys = new Set([...maps.without.keys(), ...maps.with.keys()]);
  const lines = [...keys].map((key) => {
    const w = perCreate(maps.with.get(key) ?? 0, 'with');
    const wo = perCreate(maps.without.get(key) ?? 0, 'without');
    return { key, w, wo, diff: w - wo };
  });
  lines.sort((a, b) => b.diff - a.diff);
  console.log(`\n${title}: µs a create, with / without / difference`);
  for (const l of lines.slice(0, rows))
    console.log(
      `${l.w.toFixed(1).padStart(8)} ${l.wo.toFixed(1).padStart(8)} ${l.diff.toFixed(1).padStart(8)}  ${l.key}`,
    );
}

table(under ? `Parts, under ${values.under}` : 'Parts', parts, Number.POSITIVE_INFINITY);
table(under ? `Functions' own time, under ${values.under}` : "Functions' own time", own, top);
