import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLIENT_TYPE_SOURCES,
  circles,
  httpReach,
  type Import,
  importsOf,
  layerOf,
  ROOT,
  RULES,
  readImports,
  ruleBreaks,
  TIERS,
  violations,
} from './architecture/layers.ts';

const imports = readImports(ROOT);

describe('the layers of src/ (docs/architecture.md)', () => {
  it('reads the imports of every source file', () => {
    // A reader that found nothing would pass every rule below.
    expect(imports.length).toBeGreaterThan(500);
    expect(imports.some((i) => i.from === 'src/server/app.ts' && i.specifier === 'fastify')).toBe(
      true,
    );
  });

  it('has no import against the direction', () => {
    expect(violations(imports)).toEqual([]);
  });

  it('keeps import, export, the store, the schemas and rendering free of HTTP, even through what they import', () => {
    expect(httpReach(imports)).toEqual([]);
  });

  it('has no files that import each other in a circle', () => {
    expect(circles(imports).map((c) => c.join(' ⇄ '))).toEqual([]);
  });

  it('lets the writer thread of an import load the SQLite driver and a few files of the store, nothing more', () => {
    // Each NDJSON import into an SQLite file starts one (src/store/sqlite-thread.ts): with
    // Kysely among its modules it took 200 ms to start, compiled, against 60 without.
    const loaded = new Set<string>();
    const packages = new Set<string>();
    const walk = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imp of imports.filter((i) => i.from === file && !i.typeOnly)) {
        if (imp.to) walk(imp.to);
        else if (!imp.specifier.startsWith('node:')) packages.add(imp.specifier);
      }
    };
    walk('src/store/sqlite-thread-worker.ts');
    expect([...packages]).toEqual(['better-sqlite3']);
    expect(loaded.size).toBeLessThanOrEqual(5);
  });

  it('places every folder of src/ in a layer', () => {
    const known = new Set([...TIERS.flat(), 'client']);
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((f) => !known.has(f))).toEqual([]);
  });
});

describe('the rules of docs/architecture.md beyond the tiers', () => {
  for (const { rule } of RULES)
    it(`holds: ${rule}`, () => {
      expect(ruleBreaks(imports).filter((b) => b.endsWith(`(${rule})`))).toEqual([]);
    });
});

describe('the layer rules themselves', () => {
  const one = (from: string, text: string) => importsOf(from, text);

  it('reads static, type-only, re-exported and dynamic imports, not comments', () => {
    const found = one(
      'src/store/a.ts',
      [
        "import { x } from '../http/cursor.ts';",
        "import type { Y } from './b.ts';",
        "export { z } from '../render/deals.ts';",
        "const m = await import('../server/app.ts');",
        "// import { no } from '../cli/main.ts';",
        "/* import { no } from '../cli/main.ts'; */",
        "import 'fastify';",
      ].join('\n'),
    );
    expect(found.map((i) => [i.to ?? i.specifier, i.typeOnly])).toEqual([
      ['src/http/cursor.ts', false],
      ['src/store/b.ts', true],
      ['src/render/deals.ts', false],
      ['fastify', false],
      ['src/server/app.ts', false],
    ]);
  });

  it('names an import against the direction with the file and the import', () => {
    const found = violations([
      ...one('src/store/keyset.ts', "import type { Position } from '../http/cursor.ts';"),
      ...one('src/render/deals.ts', "import { renderX } from '../resources/x/render.ts';"),
      ...one('src/server/app.ts', "import { demo } from '../ingest/demo.ts';"),
      ...one('src/client/records.ts', "import { Id } from '../api-schema/records.ts';"),
      ...one('src/client/records.ts', "import type { Id } from '../store/keyset.ts';"),
      ...one('src/domain/ids.ts', "import { Type } from '../config.ts';"),
      ...one('src/ingest/import.ts', "import Fastify from 'fastify';"),
      ...one('src/nowhere/x.ts', "import { y } from '../domain/ids.ts';"),
    ]);
    expect(found).toEqual([
      "src/store/keyset.ts: import '../http/cursor.ts' (store is below http)",
      "src/render/deals.ts: import '../resources/x/render.ts' (render is below resources)",
      "src/server/app.ts: import '../ingest/demo.ts' (server and ingest are siblings and must not import each other)",
      "src/client/records.ts: import '../api-schema/records.ts' (the client may take only types from api-schema)",
      "src/client/records.ts: import '../store/keyset.ts' (the client must not import store)",
      "src/domain/ids.ts: import '../config.ts' (domain and config are siblings and must not import each other)",
      "src/ingest/import.ts: import 'fastify' (ingest must not use HTTP)",
      "src/nowhere/x.ts: import '../domain/ids.ts' (nowhere is not a known layer (add it to TIERS and docs/architecture.md))",
    ]);
  });

  it('allows imports down the tiers, within a layer, and types for the client', () => {
    const allowed: Import[] = [
      ...one('src/cli/serve.ts', "import { buildApp } from '../server/app.ts';"),
      ...one('src/resources/people/routes.ts', "import { x } from '../../http/send.ts';"),
      ...one(
        'src/store/read-model/refresh.ts',
        "import { renderPerson } from '../../render/people.ts';",
      ),
      ...one('src/render/people.ts', "import type { PeopleTable } from '../model/tables.ts';"),
      ...one('src/http/a.ts', "import { b } from './b.ts';"),
      ...CLIENT_TYPE_SOURCES.map((layer) => ({
        from: 'src/client/x.ts',
        specifier: `../${layer}/y.ts`,
        to: `src/${layer}/y.ts`,
        typeOnly: true,
      })),
    ];
    expect(violations(allowed)).toEqual([]);
  });

  it('names an import that breaks a rule beyond the tiers', () => {
    expect(
      ruleBreaks([
        ...one('src/mcp/read-tools.ts', "import { v } from '../resources/fields/field-list.ts';"),
        ...one('src/dispatch/send.ts', "import { g } from '../resources/webhooks/guard.ts';"),
        ...one('src/server/auth.ts', "import { h } from '../resources/workspaces/writes.ts';"),
        ...one('src/store/migrations/012-x.ts', "import type { D } from '../../model/tables.ts';"),
        ...one('src/store/migrations/012-x.ts', "import { r } from '../read-model/index.ts';"),
        ...one('src/store/migrations/012-x.ts', "import { z } from 'zod';"),
      ]),
    ).toEqual([
      "src/mcp/read-tools.ts: import '../resources/fields/field-list.ts' (the MCP server calls the API, not the resources)",
      "src/dispatch/send.ts: import '../resources/webhooks/guard.ts' (the dispatcher imports no resource)",
      "src/server/auth.ts: import '../resources/workspaces/writes.ts' (the server imports resources only to register their routes)",
      "src/store/migrations/012-x.ts: import '../../model/tables.ts' (a migration imports only kysely and other migrations, so it keeps its meaning)",
      "src/store/migrations/012-x.ts: import '../read-model/index.ts' (a migration imports only kysely and other migrations, so it keeps its meaning)",
      "src/store/migrations/012-x.ts: import 'zod' (a migration imports only kysely and other migrations, so it keeps its meaning)",
    ]);
  });

  it('lets the server register routes, migrations import each other, and mcp use the API kit', () => {
    expect(
      ruleBreaks([
        ...one('src/server/app.ts', "import { r } from '../resources/people/routes.ts';"),
        ...one('src/store/migrations/019-x.ts', "import { T } from './012-x.ts';"),
        ...one('src/store/migrations/012-x.ts', "import { f } from './frozen/index.ts';"),
        ...one('src/store/migrations/012-x.ts', "import { sql } from 'kysely';"),
        ...one('src/mcp/tools.ts', "import { valueKeyOf } from '../domain/custom-fields.ts';"),
      ]),
    ).toEqual([]);
  });

  it('finds HTTP reached through another layer, naming the chain', () => {
    const chain = httpReach([
      ...one(
        'src/ingest/import-csv.ts',
        "import { createPerson } from '../resources/people/commands.ts';",
      ),
      ...one(
        'src/resources/people/commands.ts',
        "import { checkedId } from '../../http/record-route.ts';",
      ),
    ]);
    expect(chain).toEqual([
      "src/ingest/import-csv.ts → src/resources/people/commands.ts → '../../http/record-route.ts'",
    ]);
  });

  it('finds files that import each other in a circle, but not a circle of types', () => {
    expect(
      circles([
        ...one('src/cli/main.ts', "import { serve } from './serve.ts';"),
        ...one('src/cli/serve.ts', "import { parseFlags } from './main.ts';"),
        ...one('src/store/a.ts', "import type { B } from './b.ts';"),
        ...one('src/store/b.ts', "import { a } from './a.ts';"),
      ]),
    ).toEqual([['src/cli/main.ts', 'src/cli/serve.ts']]);
  });

  it('knows the layer of a file', () => {
    expect(layerOf('src/store/read-model/refresh.ts')).toBe('store');
    expect(layerOf('src/config.ts')).toBe('config');
    expect(layerOf('test/helpers.ts')).toBeUndefined();
  });
});
