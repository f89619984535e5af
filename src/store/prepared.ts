import type { Compilable, CompiledQuery } from 'kysely';

const SENTINEL = '\u0000param:';

/**
 * Compiles a Kysely query once, with named parameters, and returns a function that binds
 * values to it: hot paths skip query building, and the SQL text stays stable so the store
 * can keep it as a prepared statement.
 */
export function prepareQuery<P extends string>(
  build: (param: <T = string>(name: P) => T) => Compilable,
): (values: Record<P, unknown>) => CompiledQuery {
  const compiled = build(((name: P) => `${SENTINEL}${name}`) as <T>(name: P) => T).compile();
  const slots = compiled.parameters.map((p) =>
    typeof p === 'string' && p.startsWith(SENTINEL)
      ? { name: p.slice(SENTINEL.length) as P, literal: undefined }
      : { name: undefined, literal: p },
  );
  return (values) => ({
    sql: compiled.sql,
    query: compiled.query,
    queryId: compiled.queryId,
    parameters: slots.map((s) => (s.name !== undefined ? values[s.name] : s.literal)),
  });
}
