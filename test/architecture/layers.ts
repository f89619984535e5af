/**
 * The layers of `src/` and the one direction they may import in (docs/architecture.md), and
 * a reader of a tree's imports that names every arrow against it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/**
 * Tiers from the top: a file may import its own layer and any layer of a lower tier, never a
 * higher tier nor another layer of its own tier.
 */
export const TIERS: readonly (readonly string[])[] = [
  ['cli'],
  ['server', 'ingest', 'dispatch'],
  ['mcp'],
  ['resources'],
  ['http'],
  ['store', 'api-schema', 'outbound'],
  ['render'],
  ['model'],
  ['domain', 'config', 'cache'],
];

/** The SDK stands apart: it may take types (only) from these layers, and nothing else. */
export const CLIENT_TYPE_SOURCES: readonly string[] = ['api-schema', 'domain'];

/** Layers that must not reach HTTP (`src/http/`, `src/server/`, fastify) even transitively. */
export const HTTP_FREE: readonly string[] = [
  'ingest',
  'store',
  'api-schema',
  'outbound',
  'render',
  'model',
  'domain',
  'config',
  'cache',
];

/** The pull (`src/ingest/pull/`): the one part of the service that calls another server of the API. */
export const PULL = 'src/ingest/pull/';

/** One import of a source file. */
export interface Import {
  /** The importing file, relative to the root (`src/store/keyset.ts`). */
  from: string;
  /** The module as written (`../http/cursor.ts`, `fastify`). */
  specifier: string;
  /** The file it names, relative to the root; undefined for a package. */
  to: string | undefined;
  /** `import type` / `export type`: erased at run time, an arrow all the same. */
  typeOnly: boolean;
}

const IMPORT =
  /(?:^|[;\n])\s*(import|export)\s+(type\s+)?(?:[\w*${},\s]+?\s+from\s+)?['"]([^'"]+)['"]/g;
const DYNAMIC_IMPORT = /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The imports of one file's text (static, re-exports and dynamic). */
export function importsOf(file: string, text: string): Import[] {
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const to = specifier.startsWith('.')
      ? normalize(join(dirname(file), specifier))
          .split(sep)
          .join('/')
      : undefined;
    found.push({ from: file, specifier, to, typeOnly });
  };
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const m of code.matchAll(IMPORT)) add(m[3]!, m[2] !== undefined);
  for (const m of code.matchAll(DYNAMIC_IMPORT)) add(m[1]!, false);
  return found;
}

/** The layer of a file under `src/` (`src/store/keyset.ts` → `store`, `src/config.ts` → `config`). */
export function layerOf(file: string): string | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'src' || parts.length < 2) return undefined;
  return parts.length === 2 ? parts[1]!.replace(/\.ts$/, '') : parts[1];
}

function tierOf(layer: string): number {
  return TIERS.findIndex((tier) => tier.includes(layer));
}

/** Why `from` may not import `to` (both layers), or undefined when the arrow is allowed. */
export function forbidden(imp: Import): string | undefined {
  const from = layerOf(imp.from);
  if (from === undefined) return undefined;
  if (imp.to === undefined) {
    if (imp.specifier === 'fastify' && HTTP_FREE.includes(from)) return `${from} must not use HTTP`;
    return undefined;
  }
  const to = layerOf(imp.to);
  if (to === undefined) return `${from} imports from outside src/`;
  if (from === to) return undefined;
  if (from === 'client') {
    if (!CLIENT_TYPE_SOURCES.includes(to)) return `the client must not import ${to}`;
    return imp.typeOnly ? undefined : `the client may take only types from ${to}`;
  }
  // The pull reads another server of the API, as any program does: through the SDK.
  if (to === 'client')
    return imp.from.startsWith(PULL) ? undefined : `${from} must not import the client`;
  const a = tierOf(from);
  const b = tierOf(to);
  if (a < 0) return `${from} is not a known layer (add it to TIERS and docs/architecture.md)`;
  if (b < 0) return `${to} is not a known layer (add it to TIERS and docs/architecture.md)`;
  if (a === b) return `${from} and ${to} are siblings and must not import each other`;
  if (b < a) return `${from} is below ${to}`;
  return undefined;
}

/** Files of `server` that may import resources: route registration, and the read thread that runs a resource's read. */
export const SERVER_RESOURCE_IMPORTERS: readonly string[] = [
  'src/server/app.ts',
  'src/server/read-thread-worker.ts',
];

/** The migrations' folder: a migration imports only kysely and other files of it. */
const MIGRATIONS = 'src/store/migrations/';

/**
 * The rules of docs/architecture.md beyond the tiers, each naming what it forbids: an
 * import breaks a rule when `breaks` says so.
 */
export const RULES: readonly { rule: string; breaks: (imp: Import) => boolean }[] = [
  {
    rule: 'the MCP server calls the API, not the resources',
    breaks: (imp) => layerOf(imp.from) === 'mcp' && layerOf(imp.to ?? '') === 'resources',
  },
  {
    rule: 'the dispatcher imports no resource',
    breaks: (imp) => layerOf(imp.from) === 'dispatch' && layerOf(imp.to ?? '') === 'resources',
  },
  {
    rule: 'the server imports resources only to register their routes',
    breaks: (imp) =>
      layerOf(imp.from) === 'server' &&
      layerOf(imp.to ?? '') === 'resources' &&
      !SERVER_RESOURCE_IMPORTERS.includes(imp.from),
  },
  {
    rule: 'a migration imports only kysely and other migrations, so it keeps its meaning',
    breaks: (imp) =>
      imp.from.startsWith(MIGRATIONS) &&
      (imp.to === undefined ? imp.specifier !== 'kysely' : !imp.to.startsWith(MIGRATIONS)),
  },
];

/** Every import that breaks one of `RULES`, as `file: import 'x' (rule)`. */
export function ruleBreaks(imports: readonly Import[]): string[] {
  const found: string[] = [];
  for (const imp of imports)
    for (const { rule, breaks } of RULES)
      if (breaks(imp)) found.push(`${imp.from}: import '${imp.specifier}' (${rule})`);
  return found;
}

/** Every `.ts` file under `dir`, relative to `root`, with `/` separators. */
export function sourceFiles(root: string, dir = 'src'): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(join(root, at), { withFileTypes: true })) {
      const path = `${at}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) files.push(path);
    }
  };
  walk(dir);
  return files.sort();
}

/** The imports of every source file under `src/` of `root`. */
export function readImports(root: string): Import[] {
  return sourceFiles(root).flatMap((file) =>
    importsOf(file, readFileSync(join(root, file), 'utf8')),
  );
}

/** Every import against the direction, as `file: import 'x' (why)`. */
export function violations(imports: readonly Import[]): string[] {
  const found: string[] = [];
  for (const imp of imports) {
    const why = forbidden(imp);
    if (why) found.push(`${imp.from}: import '${imp.specifier}' (${why})`);
  }
  return found;
}

/**
 * The paths by which an HTTP-free layer reaches HTTP through what it imports: a file of such a
 * layer whose imports lead, file by file, to `src/http/`, `src/server/` or fastify.
 */
export function httpReach(imports: readonly Import[]): string[] {
  const byFile = new Map<string, Import[]>();
  for (const imp of imports) {
    const list = byFile.get(imp.from) ?? [];
    list.push(imp);
    byFile.set(imp.from, list);
  }
  const isHttp = (imp: Import) =>
    imp.specifier === 'fastify' || ['http', 'server'].includes(layerOf(imp.to ?? '') ?? '');
  // The shortest chain from each file to HTTP, found breadth first; memoised per file.
  const chains = new Map<string, string[] | null>();
  const chainFrom = (start: string): string[] | null => {
    if (chains.has(start)) return chains.get(start)!;
    const previous = new Map<string, string>([[start, '']]);
    const queue = [start];
    let hit: { file: string; specifier: string } | undefined;
    while (queue.length > 0 && !hit) {
      const file = queue.shift()!;
      for (const imp of byFile.get(file) ?? []) {
        if (isHttp(imp)) {
          hit = { file, specifier: imp.specifier };
          break;
        }
        if (imp.to && !previous.has(imp.to)) {
          previous.set(imp.to, file);
          queue.push(imp.to);
        }
      }
    }
    let chain: string[] | null = null;
    if (hit) {
      chain = [`'${hit.specifier}'`];
      for (let at = hit.file; at; at = previous.get(at)!) chain.unshift(at);
    }
    chains.set(start, chain);
    return chain;
  };
  const found: string[] = [];
  for (const file of byFile.keys()) {
    const layer = layerOf(file);
    if (!layer || !HTTP_FREE.includes(layer)) continue;
    const chain = chainFrom(file);
    if (chain) found.push(chain.join(' → '));
  }
  return found;
}

/** The root of the repository this file is in. */
export const ROOT = relative(process.cwd(), join(import.meta.dirname, '..', '..')) || '.';

/**
 * Files that import each other's values in a circle, each circle once (a circle of types only
 * is erased at run time and is left alone).
 */
export function circles(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const imp of imports) {
    if (!imp.to || imp.typeOnly) continue;
    const list = next.get(imp.from) ?? [];
    list.push(imp.to);
    next.set(imp.from, list);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}
