// `-o` to targets that cannot seek: a named pipe (mkfifo), /dev/stdout on a shell pipe, bash's
// process substitution `-o >(...)`. Each gets the same bytes a regular file gets, written in order;
// and a FIFO nobody reads (its open blocks in the kernel, its writes too once the pipe is full) does
// not hold the CLI against Ctrl-C or SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf, tempDir } from '../helpers/cli.js';
import { noPython } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';

const fx = useSandbox({ searchTermCount: 1200 });
const dir = tempDir();
let expected: string;

const args = (output: string) => ['searches', 'list', '--all', '--format', 'csv', '-o', output];

/** Kernel wait channels of the process's threads: a blocked FIFO open or pipe write shows here. */
function waitChannels(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map((task) => {
      try {
        return readFileSync(`/proc/${pid}/task/${task}/wchan`, 'utf8');
      } catch {
        return '';
      }
    });
  } catch {
    return [];
  }
}

/**
 * Resolves once `ready()` holds (bounded: 10 s, then the test fails). A CLI that blocks in the kernel
 * (a blocking FIFO open waits in `wait_for_partner`) counts as ready too: that is the defect.
 */
async function waitFor(child: ChildProcess, ready: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (ready() || waitChannels(child.pid!).includes('wait_for_partner')) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the CLI never got to ${what}`);
}

// Opens the FIFO for reading, never reads, and says "full" once the pipe holds 32 KB or more and has
// stopped growing (the writer has no room left for what it writes next).
const STALLED_READER = `
import fcntl, os, struct, sys, termios, time
fd = os.open(sys.argv[1], os.O_RDONLY)
held, still = 0, 0
while held < 32768 or still < 10:
    time.sleep(0.02)
    now = struct.unpack('i', fcntl.ioctl(fd, termios.FIONREAD, b'\\0' * 4))[0]
    still = still + 1 if now == held else 0
    held = now
print('full', flush=True)
time.sleep(60)
`;

function mkfifo(name: string): string {
  const path = join(dir.path, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

function spawnCli(argv: string[]) {
  const child = spawn(process.execPath, [CLI, ...argv], { env: cliEnv(fx.env()), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return { child, done: outputOf(child), stderr: () => stderr };
}

beforeAll(async () => {
  const file = join(dir.path, 'regular.csv');
  const r = await fx.cli(args(file));
  expect(r.code, r.stderr).toBe(0);
  expected = readFileSync(file, 'utf8');
  // More than a pipe holds (64 KiB), so a reader that stops reading blocks the writer.
  expect(expected.length).toBeGreaterThan(65536);
  return () => dir.cleanup();
});

describe('-o to a target that cannot seek', () => {
  it('a FIFO with a reader gets every row, in order', async () => {
    const fifo = mkfifo('rows.fifo');
    const reader = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'pipe'] });
    const read = outputOf(reader);
    const r = await fx.cli(args(fifo));
    expect(r.stderr).not.toMatch(/ESPIPE|error/);
    expect(r.code).toBe(0);
    expect((await read).stdout).toBe(expected);
  });

  // bash, not spawn's stdio: Node hands a child a socket pair, and /dev/stdout must be a real pipe.
  it('-o /dev/stdout on a shell pipe gets every row', async () => {
    const out = join(dir.path, 'piped.csv');
    const script = `'${process.execPath}' '${CLI}' "$@" | cat > '${out}'; exit "\${PIPESTATUS[0]}"`;
    const r = await outputOf(spawn('bash', ['-c', script, 'bash', ...args('/dev/stdout')], { env: cliEnv(fx.env()) }));
    expect(r.stderr).not.toMatch(/ESPIPE|error/);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });

  it('-o >(cat > file) (bash process substitution) gets every row', async () => {
    const out = join(dir.path, 'substituted.csv');
    const script = `'${process.execPath}' '${CLI}' searches list --all --format csv -o >(cat > '${out}'); code=$?; wait $!; exit $code`;
    const r = await outputOf(spawn('bash', ['-c', script], { env: cliEnv(fx.env()) }));
    expect(r.stderr).not.toMatch(/ESPIPE|error/);
    expect(r.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(expected);
  });

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('%s ends a run blocked opening a FIFO nobody reads (exit %i)', async (signal, code) => {
    const fifo = mkfifo(`unread-${signal}.fifo`);
    const { child, done, stderr } = spawnCli(args(fifo));
    await waitFor(child, () => stderr().includes('waiting for a reader'), 'waiting for a reader');
    child.kill(signal);
    // A ceiling that only ends a hang: a run that ignored the signal is killed, and fails below.
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const r = await done;
    clearTimeout(killer);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(code);
  });

  it.skipIf(noPython)(
    'SIGINT ends a run blocked writing to a FIFO whose reader stopped reading (exit 130)',
    async () => {
      const fifo = mkfifo('stalled.fifo');
      const reader = spawn('python3', ['-c', STALLED_READER, fifo], { stdio: ['ignore', 'pipe', 'inherit'] });
      let full = false;
      reader.stdout.on('data', () => (full = true));
      try {
        const { child, done } = spawnCli(args(fifo));
        await waitFor(child, () => full, 'a full pipe');
        child.kill('SIGINT');
        // A ceiling that only ends a hang: a run that ignored the signal is killed, and fails below.
        const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        const r = await done;
        clearTimeout(killer);
        expect(r.signal).toBeNull();
        expect(r.code).toBe(130);
      } finally {
        reader.kill('SIGKILL');
      }
    },
  );
});
