// The sync's lock file beside the database (`<db>.lock`) when someone else planted a symbolic link
// (or a FIFO) there: the sync must not follow it, neither to create or truncate a file elsewhere
// nor to read a "holder" from wherever it points (a live pid, a FIFO that never answers), and must
// say so in one line, exit 2, before anything is sent. Real links in a temp dir.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDatabase } from '../../src/analytics-store/lock.js';
import { updateTrusted } from '../../src/config/trusted-file.js';
import { UsageError } from '../../src/errors.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { FakeClock } from '../helpers/clock.js';
import { startServer } from '../helpers/server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
function scratch(): string {
  const dir = tempDir();
  cleanups.push(dir.cleanup);
  return dir.path;
}

const REFUSED =
  /^the lock file .*a\.duckdb\.lock is a symbolic link, not a lock file mint-admin made: a sync neither follows it nor takes it over; remove it if nothing of yours put it there, then run the sync again$/;

describe('lockDatabase with a symbolic link at <db>.lock', () => {
  it('a dangling link: refused at once, and nothing created where it points', async () => {
    const dir = scratch();
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'a.duckdb.lock'));
    const clock = new FakeClock();
    const error = await lockDatabase(join(dir, 'a.duckdb'), { clock }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(REFUSED);
    expect(clock.sleeps).toEqual([]);
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
  });

  it('a link to a file holding a live pid: not read as the holder, and that file untouched', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'victim'), String(process.pid));
    symlinkSync(join(dir, 'victim'), join(dir, 'a.duckdb.lock'));
    const clock = new FakeClock();
    const error = await lockDatabase(join(dir, 'a.duckdb'), { clock }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(REFUSED);
    expect(clock.sleeps).toEqual([]);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe(String(process.pid));
  });

  it('a link to a file holding a dead pid: refused too, the link and that file left as they are', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'victim'), '999999999');
    symlinkSync(join(dir, 'victim'), join(dir, 'a.duckdb.lock'));
    const error = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock() }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(REFUSED);
    expect(readFileSync(join(dir, 'victim'), 'utf8')).toBe('999999999');
  });

  it('a directory or a FIFO there is refused the same way, naming what it is, without opening it for long', async () => {
    const dir = scratch();
    mkdirSync(join(dir, 'a.duckdb.lock'));
    execFileSync('mkfifo', [join(dir, 'b.duckdb.lock')]);
    const inDirectory = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock() }).catch((e: unknown) => e);
    expect((inDirectory as Error).message).toMatch(/a\.duckdb\.lock is a directory, not a lock file mint-admin made/);
    const fifo = await lockDatabase(join(dir, 'b.duckdb'), { clock: new FakeClock() }).catch((e: unknown) => e);
    expect((fifo as Error).message).toMatch(/b\.duckdb\.lock is a FIFO, not a lock file mint-admin made/);
  });

  it('a lock file of our own kind still works: taken, released, taken again', async () => {
    const dir = scratch();
    const release = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock() });
    expect(readFileSync(join(dir, 'a.duckdb.lock'), 'utf8')).toBe(
      HAS_PROC ? `${process.pid} ${startTime(process.pid)}` : String(process.pid),
    );
    release();
    expect(existsSync(join(dir, 'a.duckdb.lock'))).toBe(false);
    (await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock() }))();
  });
});

/** Field 22 of /proc/<pid>/stat: when the process started, in clock ticks since boot. */
const HAS_PROC = existsSync('/proc/self/stat');
const startTime = (pid: number) =>
  readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ')[19];

// A kill -9 leaves the lock behind with its pid, and pids come round again: in a container node is
// PID 1 every time, so the next sync found a lock naming itself, took it for a live holder, and
// refused because of itself, on every run.
describe('lockDatabase with a stale lock whose pid is alive again', () => {
  it('our own pid, in a lock this process did not take: stale, taken over at once', async () => {
    const dir = scratch();
    writeFileSync(join(dir, 'a.duckdb.lock'), String(process.pid));
    const clock = new FakeClock();
    const release = await lockDatabase(join(dir, 'a.duckdb'), { clock });
    expect(clock.sleeps).toEqual([]);
    release();
  });

  it.skipIf(!HAS_PROC)(
    'a live pid that started at another time than the holder did (the pid reused): stale, taken over at once',
    async () => {
      const dir = scratch();
      writeFileSync(join(dir, 'a.duckdb.lock'), `${process.ppid} 1`);
      const clock = new FakeClock();
      (await lockDatabase(join(dir, 'a.duckdb'), { clock }))();
      expect(clock.sleeps).toEqual([]);
    },
  );

  it.each([
    ['its start time matches', () => `${process.ppid} ${startTime(process.ppid)}`],
    ['no start time is recorded (no /proc where it was taken)', () => String(process.ppid)],
  ])('a live holder is still respected when %s: waits, then refuses naming it', async (_name, text) => {
    if (text().includes('undefined')) return; // no /proc here
    const dir = scratch();
    writeFileSync(join(dir, 'a.duckdb.lock'), text());
    const error = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock(), waitMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ holderPid: process.ppid });
  });

  it('a second sync of the same database in this process (the library, the MCP server) still waits for the first', async () => {
    const dir = scratch();
    const release = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock() });
    const error = await lockDatabase(join(dir, 'a.duckdb'), { clock: new FakeClock(), waitMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ holderPid: process.pid });
    release();
  });
});

describe('analytics sync with a symbolic link at <db>.lock', () => {
  it('exit 2, one line, nothing sent', async () => {
    const dir = scratch();
    const server = await startServer({});
    cleanups.push(() => server.close());
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'a.duckdb.lock'));
    const env = {
      MINTLIFY_API_URL: server.url,
      MINTLIFY_ADMIN_API_KEY: 'mint_lockTestKey0123456789',
      MINTLIFY_PROJECT_ID: 'proj_1',
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'xdg'),
      XDG_DATA_HOME: join(dir, 'data'),
    };
    const r = await runCli(['analytics', 'sync', '--db', join(dir, 'a.duckdb')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /\nerror: the lock file .*a\.duckdb\.lock is a symbolic link, not a lock file mint-admin made: [^\n]*\n$/,
    );
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(dir, 'elsewhere'))).toBe(false);
  });
});

// The config file takes its lock through the same helpers (src/lock-file.ts), so it heals the same way.
describe('the config file with a stale lock naming our own pid', () => {
  it('is written at once, the lock taken over', async () => {
    const dir = scratch();
    const config = join(dir, 'mint-admin');
    mkdirSync(config, { mode: 0o700 });
    writeFileSync(join(config, 'config.json.lock'), String(process.pid));
    // A lock not taken over waits for its holder (this process, which never lets go) and fails on the
    // test's limit; no clock is read here.
    expect(await updateTrusted(config, join(config, 'config.json'), () => '{"default":{}}')).toBe(true);
    expect(readFileSync(join(config, 'config.json'), 'utf8')).toBe('{"default":{}}');
    expect(existsSync(join(config, 'config.json.lock'))).toBe(false);
  }, 30_000);
});
