import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENVIRONMENT, runCli, salescrmProgram } from './program.ts';

/** `runCli` in this process, its output captured. */
async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
  });
  return { code, out, err };
}

/** The words of every command and subcommand the program declares (`['token', 'create']`). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((c) => {
    const here = [...path, c.name()];
    return [here, ...commandPaths(c, here)];
  });
}

// A database no command may create: help and mistakes run nothing, not even loadConfig's store.
let dir: string;
let database: string;
const savedUrl = process.env.DATABASE_URL;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'salescrm-program-'));
  database = join(dir, 'never.db');
  process.env.DATABASE_URL = `sqlite:${database}`;
});
afterAll(() => {
  if (savedUrl === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = savedUrl;
  rmSync(dir, { recursive: true, force: true });
});

describe('the program', () => {
  const paths = commandPaths(salescrmProgram());

  it('declares the commands the table of docs/cli.md lists, and only those', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| command | what it does |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    // A command is the words of a code span of the first cell before its first argument.
    const documented = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => {
        const words = m[1]!.split(' ');
        const end = words.findIndex((w) => !/^[a-z][a-z-]*$/.test(w));
        return words.slice(0, end === -1 ? undefined : end).join(' ');
      }),
    );
    const leaves = paths
      .filter((p) => !paths.some((q) => q.length > p.length && p.every((w, i) => q[i] === w)))
      .map((p) => p.join(' '));
    expect(leaves).toContain('token create');
    expect(new Set(documented)).toEqual(new Set(leaves));
  });

  it('--help, help COMMAND and COMMAND --help print help, run nothing and exit 0', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    expect(top.err).toBe('');
    expect(top.out).toMatch(/^Usage: salescrm <command> \[options\]/);
    for (const [name] of paths) expect(top.out).toMatch(new RegExp(`^ {2}${name}\\b`, 'm'));
    expect(top.out).toContain(ENVIRONMENT);

    for (const path of paths) {
      const words = path.join(' ');
      for (const args of [
        [...path, '--help'],
        [...path, '-h'],
        ['help', ...path],
      ]) {
        const help = await run(args);
        expect(help.code, `${args.join(' ')}: ${help.err}`).toBe(0);
        expect(help.err).toBe('');
        expect(help.out).toMatch(new RegExp(`^Usage: salescrm ${words}\\b`));
      }
    }
    // Help even among other words, a required option missing: still help, and nothing run.
    expect((await run(['token', 'create', '--json', '--help'])).code).toBe(0);
    expect((await run(['token', 'help', 'create'])).out).toMatch(/^Usage: salescrm token create/);
    expect(existsSync(database)).toBe(false);
  });

  it("lists each command's options, with their defaults and choices", async () => {
    const demo = (await run(['demo', '--help'])).out;
    expect(demo).toMatch(/--people <N>\s+how many people.*\(default: 200\)/);
    expect(demo).toMatch(/--seed <N>.*\(default: 1\)/);
    const importHelp = (await run(['import', '--help'])).out;
    expect(importHelp).toContain('Usage: salescrm import [options] <FILE...>');
    expect(importHelp).toMatch(
      /--type <T>[\s\S]*choices: "people", "organization", "deal", "lead"/,
    );
    expect((await run(['mcp', '--help'])).out).toContain('env: SALESCRM_TOKEN');
  });

  it('lists the settings of the table of docs/settings.md, and only those', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'settings.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| variable | default | meaning |'));
    const end = table.indexOf('\n\n');
    const rows = table
      .slice(0, end === -1 ? undefined : end)
      .trimEnd()
      .split('\n')
      .slice(2);
    const documented = rows.flatMap((row) =>
      [...(row.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]),
    );
    expect(documented.length).toBeGreaterThan(20);
    const listed = [...ENVIRONMENT.matchAll(/\b[A-Z][A-Z0-9_]{2,}\b/g)].map((m) => m[0]);
    expect(new Set(listed)).toEqual(new Set(documented));
  });

  it('a misspelt command or option gets a suggestion, one line, and exit 2', async () => {
    const command = await run(['serv']);
    expect(command.code).toBe(2);
    expect(command.out).toBe('');
    expect(command.err).toBe("salescrm: unknown command 'serv' (Did you mean serve?)\n");
    const sub = await run(['token', 'lst', '--workspace', 'w']);
    expect(sub.code).toBe(2);
    expect(sub.err.split('\n')[0]).toBe("salescrm: unknown command 'lst' (Did you mean list?)");
    const option = await run(['demo', '--peeple', '5']);
    expect(option.code).toBe(2);
    expect(option.err).toBe("salescrm: unknown option '--peeple' (Did you mean --people?)\n");
    const subOption = await run(['webhook', 'list', '--workspace', 'w', '--jsn']);
    expect(subOption.err).toBe("salescrm: unknown option '--jsn' (Did you mean --json?)\n");
  });

  it('a missing or bad value is one line naming it, exit 2, and nothing run', async () => {
    const cases: [string[], string][] = [
      [['demo', '--people', '-5'], "option '--people <N>' argument '-5' is invalid"],
      [['demo', '--people', 'abc'], "option '--people <N>' argument 'abc' is invalid"],
      [['demo', '--people', '2.5'], 'It must be a whole number from 1 to 1000000.'],
      [['demo', '--people'], "option '--people <N>' argument missing"],
      [['serve', '--workers', '0'], "option '--workers <N>' argument '0' is invalid"],
      [['serve', '--port', '70000'], 'It must be a whole number from 0 to 65535.'],
      [['token', 'create'], "required option '--workspace <ID>' not specified"],
      [['token', 'revoke'], "missing required argument 'ID'"],
      [['verify'], "required option '--workspace <ID>' not specified"],
      [['backup'], "missing required argument 'FILE'"],
      [['import', '--workspace', 'w'], "missing required argument 'FILE'"],
      [['export', '--workspace', 'w', 'a', 'b'], "too many arguments for 'export'"],
      [['migrate', 'now'], "too many arguments for 'migrate'"],
      [['workspace', 'create', ' '], 'It must not be empty.'],
      [['types', '--workspace', 'w', '--name', '1x'], 'It must be a TypeScript identifier.'],
      [['events', '--workspace', 'w', '--object-type', 'x'], 'Allowed choices are people'],
      [['webhook', 'add', '--workspace', 'w', '--url', 'http://x'], "'--object <TYPES>'"],
      [['webhook', 'deliveries', 'id', '--workspace', 'w', '--status', 'x'], 'Allowed choices'],
    ];
    for (const [args, message] of cases) {
      const mistake = await run(args);
      expect(mistake.code, args.join(' ')).toBe(2);
      const [line, ...more] = mistake.err.split('\n');
      expect(line, args.join(' ')).toMatch(/^salescrm: /);
      expect(line).toContain(message);
      expect(more).toEqual(['']);
    }
    expect(existsSync(database)).toBe(false);
  });

  it('a command without its subcommand prints its help on stderr, exit 2', async () => {
    for (const group of ['token', 'webhook', 'workspace']) {
      const bare = await run([group]);
      expect(bare.code).toBe(2);
      expect(bare.out).toBe('');
      expect(bare.err).toMatch(new RegExp(`^Usage: salescrm ${group} `));
    }
    const none = await run([]);
    expect(none.code).toBe(2);
    expect(none.err).toMatch(/^Usage: salescrm <command>/);
  });
});

describe('the start of the program', () => {
  // Every module the process loads, reported by a load hook (it runs on a thread of its own).
  const HOOK = `data:text/javascript,${encodeURIComponent(`
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(
      'export async function load(url, context, next) {' +
      '  if (url.startsWith("file:")) console.error("loaded " + url);' +
      '  return next(url, context);' +
      '}'));
  `)}`;
  const root = join(import.meta.dirname, '..', '..');

  it('declares every command, and prints help, without loading what the commands run', () => {
    const started = spawnSync(
      process.execPath,
      ['--import', HOOK, '--import', 'tsx', 'src/cli/main.ts', '--help'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(started.status).toBe(0);
    const files = started.stderr
      .split('\n')
      .filter((line) => line.startsWith('loaded '))
      .map((line) => line.slice('loaded '.length).replace(/^.*?\/(src|node_modules)\//, '$1/'));
    expect(files).toContain('src/cli/program.ts');
    // The declarations, the settings, small pure modules and commander; no store, server,
    // resources, nor a command's `-run.ts`.
    const light = (file: string) =>
      /^src\/cli\/[a-z-]+\.ts$/.test(file) && !file.endsWith('-run.ts')
        ? true
        : /^(src\/config\.ts|src\/domain\/|src\/ingest\/csv-types\.ts|src\/store\/(sqlite-file|unavailable)\.ts|node_modules\/(commander|tsx|esbuild)\/)/.test(
            file,
          );
    expect(files.filter((file) => !light(file))).toEqual([]);
  });
});
