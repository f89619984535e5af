import { CompiledQuery, type RawBuilder, sql } from 'kysely';

/**
 * SQL text and the values it binds, as Kysely's `sql` tag takes them, without the query tree
 * Kysely builds and compiles from it: for the statement every PostgreSQL write runs last
 * (`close-write.ts`), whose tree of a few hundred nodes, built and compiled at each write, was
 * about a third of the server's work on the statement (docs/benchmarks.md).
 *
 * `strings` has one more entry than `values`: the text runs `strings[0]`, `values[0]`,
 * `strings[1]`, ... A value that is itself `SqlText` is text, merged in where it stands;
 * any other value is bound as a parameter.
 */
export interface SqlText {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

class Text implements SqlText {
  constructor(
    readonly strings: string[],
    readonly values: unknown[],
  ) {}
}

function isSqlText(value: unknown): value is SqlText {
  return value instanceof Text;
}

/** Appends `value` to `strings`/`values`: its text merged in, or bound as a parameter. */
function append(strings: string[], values: unknown[], value: unknown, next: string): void {
  if (!isSqlText(value)) {
    values.push(value);
    strings.push(next);
    return;
  }
  strings[strings.length - 1] += value.strings[0]!;
  for (let i = 0; i < value.values.length; i++) {
    values.push(value.values[i]);
    strings.push(value.strings[i + 1]!);
  }
  strings[strings.length - 1] += next;
}

/** The tag: `sqlText\`... ${value} ...\``, each value bound, each `SqlText` merged in. */
export function sqlText(template: TemplateStringsArray, ...values: unknown[]): SqlText {
  const strings = [template[0]!];
  const bound: unknown[] = [];
  for (let i = 0; i < values.length; i++) append(strings, bound, values[i], template[i + 1]!);
  return new Text(strings, bound);
}

/** Text as it is (never a value a client gave). */
export function rawText(text: string): SqlText {
  return new Text([text], []);
}

/** An identifier, double-quoted. */
export function identifier(name: string): SqlText {
  return rawText(`"${name.replaceAll('"', '""')}"`);
}

/** `parts` one after the other, `separator` between them. */
export function joinText(parts: readonly SqlText[], separator = ', '): SqlText {
  const strings = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) strings[strings.length - 1] += separator;
    append(strings, values, part, '');
  });
  return new Text(strings, values);
}

/** The text with PostgreSQL's numbered parameters (`$1`, `$2`, ...), ready to run. */
export function compiledText(text: SqlText): CompiledQuery {
  let out = text.strings[0]!;
  for (let i = 0; i < text.values.length; i++) out += `$${i + 1}${text.strings[i + 1]}`;
  return CompiledQuery.raw(out, [...text.values]);
}

/** The same text as a part of a query Kysely builds. */
export function inKysely<T = unknown>(text: SqlText): RawBuilder<T> {
  return sql<T>(Object.assign([...text.strings], { raw: text.strings }), ...text.values);
}
