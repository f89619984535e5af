import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { openStore } from '../src/store/database.ts';
import { partitionByWorkspace } from '../src/store/partitions.ts';
import { databaseUrl, ident, testPartitions, testServerUrl, withAdmin } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The PostgreSQL test run: its server, database name prefix and migrated template. */
    postgres: { serverUrl: string; prefix: string; template: string; partitions: number };
  }
}

/**
 * Global setup of the PostgreSQL project: one migrated template database for the run, which
 * each test file copies (`create database … template`, much faster than migrating), and at
 * the end every database of the run dropped. With `SALESCRM_TEST_PG_PARTITIONS=N` the
 * template's workspace tables are hash-partitioned by workspace, as `PG_PARTITIONS=N` makes
 * them, so every suite runs on partitioned tables.
 */
export default async function setup(project: TestProject) {
  const serverUrl = testServerUrl();
  const prefix = `salescrm_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}_`;
  const template = `${prefix}template`;
  await withAdmin(serverUrl, (c) => c.query(`create database ${ident(template)}`));
  const store = openStore(databaseUrl(serverUrl, template));
  const partitions = testPartitions();
  try {
    await store.migrate();
    await partitionByWorkspace(store.db, partitions);
  } finally {
    await store.close();
  }
  project.provide('postgres', { serverUrl, prefix, template, partitions });
  return async () => {
    await withAdmin(serverUrl, async (c) => {
      const { rows } = await c.query<{ datname: string }>(
        `select datname from pg_database where starts_with(datname, $1)`,
        [prefix],
      );
      for (const { datname } of rows) {
        await c.query(`drop database if exists ${ident(datname)} with (force)`);
      }
    });
  };
}
