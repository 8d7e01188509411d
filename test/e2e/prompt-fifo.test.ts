// `-f <fifo>` for the prompt (autopilot run, agent run): the open waits for a writer, and Ctrl-C or
// SIGTERM must end that wait (exit 130/143) with nothing sent. A blocking open waits in a libuv worker
// thread the process cannot leave, so it ignored both until some writer came.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnv, outputOf, tempDir } from '../helpers/cli.js';
import { json, startServer } from '../helpers/server.js';

const KEY = 'mint_e2etestkey0123456789';
const dir = tempDir();
let server: Awaited<ReturnType<typeof startServer>>;
beforeAll(async () => {
  server = await startServer({
    'POST /v2/autopilot/p1/webhook': json(200, { runId: 'apr_1' }),
    'POST /v2/agent/p1/job': json(200, { id: 'job_1', status: 'processing' }),
  });
});
afterAll(async () => {
  await server.close();
  dir.cleanup();
});

function mkfifo(name: string): string {
  const path = join(dir.path, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
}

function spawnCli(argv: string[]) {
  const env = cliEnv({
    HOME: dir.path,
    XDG_CONFIG_HOME: join(dir.path, 'xdg'),
    MINTLIFY_API_URL: server.url,
    MINTLIFY_ADMIN_API_KEY: KEY,
    MINTLIFY_PROJECT_ID: 'p1',
  });
  const child = spawn(process.execPath, [CLI, ...argv], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return { child, done: outputOf(child), stderr: () => stderr };
}

/** Kernel wait channels of the process's threads: a blocked FIFO open shows `wait_for_partner`. */
function blockedInOpen(child: ChildProcess): boolean {
  try {
    return readdirSync(`/proc/${child.pid}/task`).some((t) => {
      try {
        return readFileSync(`/proc/${child.pid}/task/${t}/wchan`, 'utf8') === 'wait_for_partner';
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Until the CLI says it waits for a writer, or (the defect) sits blocked in the open. */
async function waitForWriterWait(cli: ReturnType<typeof spawnCli>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (cli.stderr().includes('waiting for a writer') || blockedInOpen(cli.child)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the CLI never waited for a writer: ${cli.stderr()}`);
}

describe('-f <fifo> with no writer yet', () => {
  it.each([
    ['autopilot run', 'SIGINT', 130],
    ['autopilot run', 'SIGTERM', 143],
    ['agent run', 'SIGINT', 130],
  ] as const)('%s: %s ends the wait (exit %i), nothing sent', async (command, signal, code) => {
    const before = server.requests.length;
    const fifo = mkfifo(`prompt-${command.replace(' ', '-')}-${signal}.fifo`);
    const cli = spawnCli([...command.split(' '), '-f', fifo]);
    await waitForWriterWait(cli);
    cli.child.kill(signal);
    const killer = setTimeout(() => {
      // A ceiling that only ends a hang: release a CLI stuck in its open so the test ends; the
      // assertions below then fail.
      writeFileSync(fifo, 'released by the test\n');
    }, 20_000);
    const r = await cli.done;
    clearTimeout(killer);
    expect(r.code).toBe(code);
    expect(server.requests.length).toBe(before);
  });

  it('a writer that comes later: its text is the prompt', async () => {
    const fifo = mkfifo('prompt-later.fifo');
    const cli = spawnCli(['autopilot', 'run', '-f', fifo]);
    await waitForWriterWait(cli);
    writeFileSync(fifo, 'Update the changelog\n');
    const r = await cli.done;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('apr_1\n');
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({ prompt: 'Update the changelog' });
  });

  it('a writer that never stops (cat /dev/zero): refused past 1 MiB, exit 2, nothing sent', async () => {
    const before = server.requests.length;
    const fifo = mkfifo('prompt-endless.fifo');
    const cli = spawnCli(['autopilot', 'run', '-f', fifo]);
    await waitForWriterWait(cli);
    const writer = spawn('sh', ['-c', 'exec cat /dev/zero > "$1"', 'sh', fifo], { stdio: 'ignore' });
    const r = await cli.done;
    writer.kill();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('holds more than 1 MiB; give a shorter prompt; nothing was sent');
    expect(server.requests.length).toBe(before);
  });

  it('a writer that writes nothing: the empty prompt is refused, exit 2', async () => {
    const before = server.requests.length;
    const fifo = mkfifo('prompt-empty.fifo');
    const cli = spawnCli(['autopilot', 'run', '-f', fifo]);
    await waitForWriterWait(cli);
    writeFileSync(fifo, '');
    const r = await cli.done;
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is empty; nothing was sent');
    expect(server.requests.length).toBe(before);
  });
});
