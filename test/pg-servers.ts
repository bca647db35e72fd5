/**
 * PostgreSQL servers for the store test suite and the benchmark (bench/run.ts):
 * - PGlite (PostgreSQL 18 in WebAssembly, with pgvector) behind pglite-socket on a loopback port,
 *   in this process ({@link startPglite}) or in a child process of its own ({@link startPgliteProcess});
 * - a real PostgreSQL server over TCP: `MNEMOLITE_TEST_PG_URL` when set (`.ci/run` starts one),
 *   else a throwaway cluster started here with the machine's `initdb`/`pg_ctl`, if it has them.
 * Every test (and every benchmark cell) uses its own schema, so none sees another's memories.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A server the tests can reach by URL. */
export interface PgServer {
  url: string;
  /** Whether pgvector is available. */
  vectors: boolean;
  label: string;
  /** The server's process, when it is a child of this one (PGlite in its own process). */
  pid?: number;
  stop(): Promise<void>;
}

let schemaCounter = 0;
/** A fresh schema name for one test. */
export function freshSchema(): string {
  return `t_${process.pid}_${Date.now().toString(36)}_${++schemaCounter}`;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** PGlite with pgvector, served on a loopback port. */
export async function startPglite(): Promise<PgServer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create({ extensions: { vector } });
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 8 } as ConstructorParameters<typeof PGLiteSocketServer>[0]);
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    vectors: true,
    label: 'PGlite 0.5.14 (PostgreSQL 18, pgvector)',
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/**
 * PGlite with pgvector served on a loopback port by a child process (test/pglite-server.ts), so
 * the server has its own event loop and heap and clients pay for a real socket. The child exits
 * when {@link PgServer.stop} is called or when this process goes away (its stdin closes).
 */
export async function startPgliteProcess(): Promise<PgServer> {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'pglite-server.ts');
  // stdout of the child goes to our stderr: only the IPC channel carries its URL.
  const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', process.stderr, 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('error', reject);
    child.once('exit', (code, sig) => reject(new Error(`PGlite server process exited (${code ?? sig}) before it was ready`)));
  });
  child.disconnect();
  return {
    url,
    vectors: true,
    label: 'PGlite 0.5.14 (PostgreSQL 18, pgvector) over TCP (pglite-socket, in a process of its own)',
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

function which(cmd: string): string | null {
  for (const dir of ['/usr/local/bin', '/usr/bin', ...(process.env.PATH ?? '').split(':')]) {
    if (existsSync(join(dir, cmd))) return join(dir, cmd);
  }
  return null;
}

/** Where {@link startPostgres} finds or starts its server. */
export interface StartPostgresOptions {
  /** A running server to use instead of starting one (default: `MNEMOLITE_TEST_PG_URL`). */
  url?: string | undefined;
  /** Where `url` came from, for the label (default `MNEMOLITE_TEST_PG_URL`). */
  urlSource?: string;
  /** Server settings (`name=value`) of a throwaway cluster (default `fsync=off`: tests need no durability). */
  settings?: string[];
}

/** The real server: the given URL (`MNEMOLITE_TEST_PG_URL`), or a throwaway local cluster; null when neither is possible. */
export async function startPostgres(o: StartPostgresOptions = { url: process.env.MNEMOLITE_TEST_PG_URL }): Promise<PgServer | null> {
  const given = o.url;
  if (given) {
    const { vectors, version } = await probe(given);
    return { url: given, vectors, label: `PostgreSQL ${version} over TCP (${o.urlSource ?? 'MNEMOLITE_TEST_PG_URL'})`, stop: async () => {} };
  }
  const initdb = which('initdb');
  const pgCtl = which('pg_ctl');
  if (!initdb || !pgCtl) return null;
  const dir = mkdtempSync(join(tmpdir(), 'mnemolite-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  const port = await freePort();
  // PostgreSQL refuses to run as root: run it as the `postgres` user when we are root.
  const asUser = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const run = (args: string[]): void => {
    const [cmd, ...rest] = [...asUser, ...args];
    const r = spawnSync(cmd!, rest, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr || r.stdout}`);
  };
  try {
    run([initdb, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
    run([
      pgCtl,
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 ${(o.settings ?? ['fsync=off']).map((x) => `-c ${x}`).join(' ')}`,
      'start',
    ]);
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { vectors, version } = await probe(url);
  return {
    url,
    vectors,
    label: `PostgreSQL ${version} over TCP (throwaway cluster)`,
    stop: async () => {
      try {
        run([pgCtl, '-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Whether the server has pgvector, and its version. */
async function probe(url: string): Promise<{ vectors: boolean; version: string }> {
  const { default: pg } = await import('pg');
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query("SELECT current_setting('server_version') AS v, EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS vec");
    return { vectors: r.rows[0].vec === true, version: String(r.rows[0].v) };
  } finally {
    await c.end();
  }
}
