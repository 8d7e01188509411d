// stdout is written straight to fd 1 until a command needs a stream (src/cli/io.ts), and whether fd 1 is
// a terminal is asked of node:tty only for a character device other than /dev/null
// (src/cli/is-terminal.ts). Both are start-up savings; here the built CLI writes to each kind of stdout
// a user gives it, including the awkward ones: a non-blocking pipe whose reader is slow (EAGAIN
// part-way through a write) and a reader that leaves early (EPIPE).
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, runCli, tempDir } from '../helpers/cli.js';
import { noPython, PYTHON_SKIP_NOTE } from '../helpers/pty.js';

const dir = tempDir();
afterAll(() => dir.cleanup());
const env = () => cliEnv({ XDG_CONFIG_HOME: join(dir.path, 'config'), XDG_CACHE_HOME: join(dir.path, 'cache') });

/** Runs the CLI with fd 1 opened on `path` (a file, /dev/null). */
function runToFile(args: string[], path: string) {
  const fd = openSync(path, 'w');
  try {
    return spawnSync(process.execPath, [CLI, ...args], { env: env(), stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' });
  } finally {
    closeSync(fd);
  }
}

// Python makes the pipe: Node cannot hand a child a pipe it has made non-blocking, or stop reading
// one at a chosen byte. Prints what it read (base64, so nothing is lost) and the exit status as JSON.
// The late reader starts once the child has met EAGAIN: the pipe has no room (select on the write
// end, which the driver holds open until then) and the child sleeps (ps), which, with its output not
// all written, is it waiting for room. Waiting for that, not for a time, makes the reader late on a
// loaded machine too. A child that exits first is read at once (what it wrote is then all there is);
// the deadline only ends a run that hangs, which then fails.
const PIPE_DRIVER = `
import base64, json, os, select, subprocess, sys, time
mode, args = sys.argv[1], sys.argv[2:]
r, w = os.pipe()
if mode == 'nonblocking':
    os.set_blocking(w, False)
child = subprocess.Popen(args, stdout=w, stderr=subprocess.PIPE)
data = b''
if mode == 'nonblocking':
    def full():
        return not select.select([], [w], [], 0)[1]
    def asleep():
        ps = subprocess.run(['ps', '-o', 'state=', '-p', str(child.pid)], capture_output=True, text=True)
        return ps.stdout.strip()[:1] in ('S', 'I')
    deadline = time.monotonic() + 20
    while child.poll() is None and not (full() and asleep()):
        if time.monotonic() > deadline:
            child.kill()
            sys.exit('the CLI did not fill the pipe and wait for room')
        time.sleep(0.005)
    os.close(w)
    while True:
        chunk = os.read(r, 4096)
        if not chunk: break
        data += chunk
else:
    os.close(w)
    data = os.read(r, 100)  # a reader that has what it wants, like head
    os.close(r)
err = child.stderr.read()
print(json.dumps({'status': child.wait(), 'stdout': base64.b64encode(data).decode(), 'stderr': err.decode()}))
`;

function runThroughPipe(mode: 'nonblocking' | 'early-close', args: string[]) {
  const r = spawnSync('python3', ['-c', PIPE_DRIVER, mode, process.execPath, CLI, ...args], {
    env: env(),
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as { status: number; stdout: string; stderr: string };
  return { status: out.status, stdout: Buffer.from(out.stdout, 'base64').toString('utf8'), stderr: out.stderr };
}

describe('stdout of every kind', () => {
  it('a file gets the whole output, and help wrapped to 80 columns (a file is no terminal)', async () => {
    const file = join(dir.path, 'help.txt');
    expect(runToFile(['searches', 'list', '--help'], file).status).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe((await runCli(['searches', 'list', '--help'])).stdout);
    const path = join(dir.path, 'path.txt');
    expect(runToFile(['config', 'path'], path)).toMatchObject({ status: 0, stderr: '' });
    expect(readFileSync(path, 'utf8')).toBe(`${join(dir.path, 'config', 'mint-admin', 'config.json')}\n`);
  });

  it('/dev/null: runs and exits 0 with nothing on stderr', () => {
    for (const args of [['config', 'path'], ['completion', 'fish'], ['--help'], ['--version']]) {
      expect(runToFile(args, '/dev/null'), args.join(' ')).toMatchObject({ status: 0, stderr: '' });
    }
  });

  it.skipIf(noPython)(
    `a non-blocking pipe read late gets every byte, in order (more than the pipe holds)${PYTHON_SKIP_NOTE}`,
    async () => {
      const expected = (await runCli(['completion', 'fish'])).stdout;
      expect(expected.length).toBeGreaterThan(65536);
      expect(runThroughPipe('nonblocking', ['completion', 'fish'])).toEqual({
        status: 0,
        stdout: expected,
        stderr: '',
      });
    },
  );

  it.skipIf(noPython)(
    `a reader that leaves early (| head) ends the run quietly with 0${PYTHON_SKIP_NOTE}`,
    async () => {
      const expected = (await runCli(['completion', 'fish'])).stdout;
      expect(runThroughPipe('early-close', ['completion', 'fish'])).toEqual({
        status: 0,
        stdout: expected.slice(0, 100),
        stderr: '',
      });
    },
  );

  it.skipIf(noPython)(
    `the same for pre-rendered help, which the entry prints on its own${PYTHON_SKIP_NOTE}`,
    async () => {
      const expected = (await runCli(['export', 'download', '--help'])).stdout;
      expect(runThroughPipe('early-close', ['export', 'download', '--help'])).toEqual({
        status: 0,
        stdout: expected.slice(0, 100),
        stderr: '',
      });
    },
  );
});
