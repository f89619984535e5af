import { execFileSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * PostgreSQL clusters of a test, made with initdb in a temporary directory and listening on
 * free ports of 127.0.0.1 only, run as the `postgres` OS user (initdb refuses root). The
 * system's own cluster is never touched.
 */
export const PG_BIN = process.env.PG_BIN || '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;

/** Why clusters cannot be made here, or undefined when they can. */
export function clustersMissing(): string | undefined {
  if (!existsSync(join(PG_BIN, 'initdb')) || !existsSync(join(PG_BIN, 'pg_basebackup'))) {
    return `no initdb/pg_basebackup in ${PG_BIN} (set PG_BIN)`;
  }
  if (!asRoot && userInfo().username !== 'postgres') {
    return 'needs to run as root or as the postgres user, to start clusters as postgres';
  }
  return undefined;
}

/** Runs a program of PostgreSQL's bin directory as the postgres user. */
export function runPg(bin: string, args: string[]): string {
  const [cmd, all] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(PG_BIN, bin), ...args]]
    : [join(PG_BIN, bin), args];
  return execFileSync(cmd, all, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One cluster: its data directory, port and URL (database `postgres`, user `postgres`). */
export interface Cluster {
  name: string;
  dir: string;
  port: number;
  url: string;
  /** `host:port`, as a multi-host URL lists it. */
  host: string;
}

/** A temporary directory holding clusters, which `dispose` stops and removes. */
export class ClusterDir {
  readonly root: string;
  private readonly clusters: Cluster[] = [];

  constructor(prefix: string) {
    this.root = mkdtempSync(join(tmpdir(), prefix));
    if (asRoot) chownSync(this.root, Number(execFileSync('id', ['-u', 'postgres']).toString()), 0);
  }

  /**
   * A new primary cluster (initdb), started: `clusterBasics`, then the `conf` lines, in its
   * postgresql.conf.
   */
  async primary(name: string, conf: string[] = []): Promise<Cluster> {
    const cluster = await this.cluster(name);
    runPg('initdb', [
      ...['-D', cluster.dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    ]);
    this.configure(cluster, [...clusterBasics(cluster), ...conf]);
    this.start(cluster);
    return cluster;
  }

  /**
   * A streaming standby of `primary` (`pg_basebackup -R`), started; its postgresql.conf is the
   * primary's, then its own `clusterBasics` and `conf`.
   */
  async standby(name: string, primary: Cluster, conf: string[] = []): Promise<Cluster> {
    const cluster = await this.cluster(name);
    runPg('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres'],
      ...['-D', cluster.dir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync'],
    ]);
    this.configure(cluster, [...clusterBasics(cluster), ...conf]);
    this.start(cluster);
    return cluster;
  }

  start(cluster: Cluster): void {
    runPg('pg_ctl', ['-D', cluster.dir, '-l', this.log(cluster), '-w', 'start']);
  }

  /** Appends lines to the cluster's postgresql.conf (a started cluster needs a reload). */
  configure(cluster: Cluster, conf: string[]): void {
    appendFileSync(join(cluster.dir, 'postgresql.conf'), `\n${conf.join('\n')}\n`);
  }

  /** The postmaster's process id, from its postmaster.pid. */
  postmasterPid(cluster: Cluster): number {
    return Number(readFileSync(join(cluster.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  }

  /** The cluster's server log so far. */
  logText(cluster: Cluster): string {
    try {
      return readFileSync(this.log(cluster), 'utf8');
    } catch {
      return '';
    }
  }

  /** Stops every cluster (immediately; one already dead is passed over) and removes the directory. */
  dispose(): void {
    for (const cluster of this.clusters.reverse()) {
      try {
        runPg('pg_ctl', ['-D', cluster.dir, '-m', 'immediate', '-w', 'stop']);
      } catch {}
    }
    rmSync(this.root, { recursive: true, force: true });
  }

  private async cluster(name: string): Promise<Cluster> {
    const port = await freePort();
    const cluster: Cluster = {
      name,
      dir: join(this.root, name),
      port,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      host: `127.0.0.1:${port}`,
    };
    this.clusters.push(cluster);
    return cluster;
  }

  private log(cluster: Cluster): string {
    return join(this.root, `${cluster.name}.log`);
  }
}

/** The settings every test cluster gets: its port and socket, loopback only, no fsync. */
export function clusterBasics(cluster: Cluster): string[] {
  return [
    `port = ${cluster.port}`,
    `listen_addresses = '127.0.0.1'`,
    `unix_socket_directories = '${cluster.dir}'`,
    'fsync = off',
    'full_page_writes = off',
  ];
}
