// The PostgreSQL half of `npm run bench -- --database postgres`: the same demo built in a
// fresh database of the server at BENCH_DATABASE_URL (default the local one), and the first
// and a deep GET /v2/people page loaded as on SQLite, for the same table.

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  buildDemo,
  countOccurrences,
  countRecords,
  type LoadFigures,
  startChild,
  stopChild,
} from './lib.ts';
import { RawClient } from './raw-client.ts';

/** What the PostgreSQL half measured. */
export interface PostgresFigures {
  runs: LoadFigures[];
  buildSeconds: number;
  records: number;
  walk: { records: number; seconds: number };
  server: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Builds the demo on PostgreSQL and loads its first and deep people pages with `saturate`. */
export async function benchPostgres(opts: {
  people: number;
  port: number;
  keep: boolean;
  saturate: (name: string, url: string, headers: Record<string, string>) => Promise<LoadFigures>;
}): Promise<PostgresFigures> {
  const server = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `salescrm_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${quote(name)}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  try {
    console.log(`PostgreSQL: building the same demo in database ${name} …`);
    const demo = buildDemo(databaseUrl, opts.people);
    // As autovacuum would soon after a bulk load: without it, its work lands in the runs.
    const vacuum = new pg.Client({ connectionString: databaseUrl });
    await vacuum.connect();
    await vacuum.query('vacuum (analyze)');
    await vacuum.end();
    const records = await countRecords(databaseUrl);
    console.log(
      `built in ${demo.seconds.toFixed(1)} s: ${records.toLocaleString('en-US')} records`,
    );
    const headers = { authorization: `Bearer ${demo.token}` };
    const api = await startChild('bench/api-server.ts', [databaseUrl, String(opts.port)]);
    try {
      // A full cursor walk, 100 a page, one client; its middle cursor is the deep page.
      const client = await RawClient.open('127.0.0.1', opts.port);
      let cursor: string | null = null;
      let deepCursor = '';
      let walked = 0;
      const started = performance.now();
      do {
        const res = await client.get(
          `/v2/people?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
          headers,
        );
        if (res.status !== 200) throw new Error(`walk: ${res.status} ${res.body.toString()}`);
        walked += countOccurrences(res.body);
        cursor = (/"nextCursor":(null|"([^"]*)")\}\}$/.exec(
          res.body.subarray(-400).toString(),
        )?.[2] ?? null) as string | null;
        if (walked >= opts.people / 2 && !deepCursor && cursor) deepCursor = cursor;
      } while (cursor);
      const walkSeconds = (performance.now() - started) / 1000;
      client.close();
      if (walked !== opts.people)
        throw new Error(`walk saw ${walked} people, expected ${opts.people}`);
      const base = `http://127.0.0.1:${opts.port}`;
      const runs = [
        await opts.saturate('PostgreSQL: GET /v2/people, first page', `${base}/v2/people`, headers),
        await opts.saturate(
          'PostgreSQL: GET /v2/people, deep page',
          `${base}/v2/people?cursor=${deepCursor}`,
          headers,
        ),
      ];
      return {
        runs,
        buildSeconds: demo.seconds,
        records,
        walk: { records: walked, seconds: walkSeconds },
        server: `${url.host}, PostgreSQL ${(await admin.query('show server_version')).rows[0].server_version}`,
      };
    } finally {
      await stopChild(api);
    }
  } finally {
    if (!opts.keep) await admin.query(`drop database if exists ${quote(name)} with (force)`);
    await admin.end();
  }
}
