// SIGTERM (CI cancelling a job, `docker stop`) and SIGHUP (a dropped SSH session) stop a command with
// the same clean-up as Ctrl-C and exit 143 / 129; a second signal of any kind means "now".
// Real signals to the built CLI as a subprocess.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const t = useSandbox({ searchTermCount: 450 }, { homePerTest: true });

const env = () => t.env();

/** Runs the CLI and sends `signals` (one after another, `gapMs` apart) once `ready()` holds. */
function runAndSignal(args: string[], ready: () => boolean, signals: NodeJS.Signals[], gapMs = 0): Promise<CliResult> {
  return runCli(args, {
    env: env(),
    onSpawn: (child) => {
      const timer = setInterval(() => {
        if (!ready()) return;
        clearInterval(timer);
        signals.forEach((signal, i) => setTimeout(() => child.kill(signal), i * gapMs));
      }, 20);
      child.on('close', () => clearInterval(timer));
    },
  });
}

const lastLine = (r: CliResult) => r.stderr.trimEnd().split('\n').at(-1);
const requested = (prefix: string) => () => t.sandbox.requests.some((q) => q.path.startsWith(prefix));

async function completedExport(): Promise<string> {
  const headers = { authorization: `Bearer ${t.sandbox.apiKey}`, 'content-type': 'application/json' };
  const start = await fetch(`${t.sandbox.baseUrl}/v1/static-export/jobs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ domain: 'docs.example.com' }),
  });
  const { jobId } = (await start.json()) as { jobId: string };
  for (let i = 0; i < 10; i++) await fetch(`${t.sandbox.baseUrl}/v1/static-export/jobs/${jobId}`, { headers });
  t.sandbox.requests.length = 0;
  return jobId;
}

describe.each([
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const)('%s', (signal, code) => {
  it(`agent run --wait: exit ${code} with the resume hint`, async () => {
    t.sandbox.faults.agentPollsToFinish = 1_000_000;
    const r = await runAndSignal(
      ['agent', 'run', 'Add a changelog', '--wait', '--interval', '100ms'],
      () => t.sandbox.requests.filter((q) => q.method === 'GET').length >= 2,
      [signal],
    );
    expect(r.code).toBe(code);
    expect(lastLine(r)).toMatch(
      /^error: stopped waiting; agent job \w+ keeps running on the server: resume the wait with `mint-admin agent get \w+ --wait`$/,
    );
  });

  it(`export download mid-transfer: exit ${code}, the work directory removed`, async () => {
    const id = await completedExport();
    t.sandbox.faults.throttleBytesPerSecond = 5_000;
    const work = join(t.home, 'work');
    const r = await runAndSignal(
      ['export', 'download', id, '-o', join(work, 'site')],
      () => t.sandbox.requests.some((q) => q.origin === 'storage'),
      [signal],
    );
    expect(r.code).toBe(code);
    expect(lastLine(r)).toMatch(/^error: interrupted: the partial download was removed/);
    expect(existsSync(work) ? readdirSync(work) : []).toEqual([]);
  });

  it(`searches list --all -o x.json: exit ${code}, a closed JSON document, the resume command`, async () => {
    t.sandbox.faults.inject({ route: 'searches.list', delayMs: 800, times: 100 });
    const file = join(t.home, 'x.json');
    const r = await runAndSignal(
      ['searches', 'list', '--all', '-o', file, '--format', 'json'],
      () => t.sandbox.requests.filter((q) => q.path.includes('/searches')).length >= 2,
      [signal],
    );
    expect(r.code).toBe(code);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { searches: unknown[]; nextCursor: string };
    expect(doc.searches).toHaveLength(100);
    expect(r.stderr).toContain(`--cursor ${doc.nextCursor} -o ${join(t.home, 'x.part2.json')}`);
  });

  it(`searches list --all --format csv -o: exit ${code}, whole rows`, async () => {
    t.sandbox.faults.inject({ route: 'searches.list', delayMs: 800, times: 100 });
    const file = join(t.home, 'x.csv');
    const r = await runAndSignal(
      ['searches', 'list', '--all', '-o', file, '--format', 'csv'],
      () => t.sandbox.requests.filter((q) => q.path.includes('/searches')).length >= 2,
      [signal],
    );
    expect(r.code).toBe(code);
    const text = readFileSync(file, 'utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    expect(r.stderr).toMatch(/--no-header --cursor \S+ >> /);
  });
});

it("a second signal means now: exit at once with that signal's code, skipping the clean-up", async () => {
  // The first SIGTERM starts the clean-up of a download that is slow to notice; a SIGHUP right
  // after ends the process there and then.
  t.sandbox.faults.agentPollsToFinish = 1_000_000;
  // Longer than any test may take: a run that heard neither signal fails by hanging, not by a timing.
  t.sandbox.faults.inject({ route: 'agent.get', delayMs: 600_000, times: 100 });
  const r = await runAndSignal(
    ['agent', 'run', 'Add a changelog', '--wait', '--interval', '100ms'],
    requested(`/v2/agent/${t.sandbox.projectId}/job/`),
    ['SIGTERM', 'SIGHUP'],
    5,
  );
  expect([143, 129]).toContain(r.code);
});
