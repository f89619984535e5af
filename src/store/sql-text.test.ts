import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import { compiledText, identifier, inKysely, joinText, rawText, sqlText } from './sql-text.ts';

/** Kysely for PostgreSQL that only compiles. */
const compiler = new Kysely<Record<string, never>>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

describe('sqlText', () => {
  it('binds each value as a parameter, numbered in the order of the text', () => {
    const q = compiledText(
      sqlText`select * from t where a = ${1} and b = any(${['x', 'y']}::text[])`,
    );
    expect(q.sql).toBe('select * from t where a = $1 and b = any($2::text[])');
    expect(q.parameters).toEqual([1, ['x', 'y']]);
  });

  it('merges text it is given where it stands, with its values in their places', () => {
    const inner = sqlText`b = ${'two'} or c = ${'three'}`;
    const q = compiledText(sqlText`where a = ${'one'} and (${inner}) and d = ${'four'}`);
    expect(q.sql).toBe('where a = $1 and (b = $2 or c = $3) and d = $4');
    expect(q.parameters).toEqual(['one', 'two', 'three', 'four']);
  });

  it('a value that looks like SQL is still a value', () => {
    const q = compiledText(sqlText`select ${'1; drop table t; --'}, ${null}`);
    expect(q.sql).toBe('select $1, $2');
    expect(q.parameters).toEqual(['1; drop table t; --', null]);
  });

  it('joins parts with a separator, and quotes identifiers', () => {
    const columns = joinText(['id', 'say "hi"'].map(identifier));
    const values = joinText([sqlText`${1}`, rawText('default'), sqlText`${2}`], ' | ');
    const q = compiledText(sqlText`insert into t (${columns}) values (${values})`);
    expect(q.sql).toBe('insert into t ("id", "say ""hi""") values ($1 | default | $2)');
    expect(q.parameters).toEqual([1, 2]);
    expect(compiledText(joinText([])).sql).toBe('');
  });

  it('compiles as Kysely compiles the same text, alone or inside a query of its own', () => {
    const text = sqlText`case when x > ${'a'} then ${'b'} else ${joinText([sqlText`${3}`, rawText('y')])} end`;
    const ours = compiledText(text);
    const kysely = inKysely(text).compile(compiler);
    expect(kysely.sql).toBe(ours.sql);
    expect(kysely.parameters).toEqual(ours.parameters);
    const nested = sql`select ${inKysely(text)} where z = ${'last'}`.compile(compiler);
    expect(nested.sql).toBe(`select ${ours.sql} where z = $4`);
    expect(nested.parameters).toEqual([...ours.parameters, 'last']);
  });
});
