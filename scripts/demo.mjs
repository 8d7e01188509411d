// `npm run demo`: the main job end to end against a local sandbox of the Admin API, printing each
// command as a user would type it. Nothing here touches the real API or your config.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const cli = fileURLToPath(new URL('../dist/cli/main.cjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mint-admin-demo-'));
const sandbox = await startSandbox();
const env = {
  ...process.env,
  MINTLIFY_API_URL: sandbox.baseUrl,
  MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
  MINTLIFY_PROJECT_ID: sandbox.projectId,
  XDG_CONFIG_HOME: join(work, 'config'),
  // The analytics database and the hourly request ledger, kept in the demo's own directory too.
  XDG_DATA_HOME: join(work, 'data'),
  XDG_STATE_HOME: join(work, 'state'),
};

const shown = (/** @type {string[]} */ args) =>
  `$ mint-admin ${args.map((a) => (/[\s"'\[]/.test(a) ? JSON.stringify(a) : a)).join(' ')}`;

/**
 * The CLI as a child process. Never spawnSync: the sandbox runs in this process and must keep
 * answering while the CLI talks to it.
 * @param {string[]} args
 * @param {'inherit' | 'pipe'} stdout
 * @returns {Promise<{ status: number | null; out: string }>}
 */
function cliProcess(args, stdout, childEnv = env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { env: childEnv, stdio: ['ignore', stdout, 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out }));
  });
}

/**
 * Runs one step as a user would type it; `expect` is the exit code that step should end with.
 * @param {string} title
 * @param {string[]} args
 */
async function run(title, args, expect = 0, childEnv = env) {
  console.log(`\n== ${title}\n${shown(args)}`);
  const { status } = await cliProcess(args, 'inherit', childEnv);
  if (status !== expect) throw new Error(`step "${title}" exited ${status}, expected ${expect}`);
  if (expect !== 0) console.log(`(exit code ${status}, as a CI job would see it)`);
}

/**
 * Runs a step for its stdout, as a script would in $(...).
 * @param {string[]} args
 */
async function capture(args) {
  console.log(shown(args));
  const { status, out } = await cliProcess(args, 'pipe');
  if (status !== 0) throw new Error(`${args.join(' ')} exited ${status}`);
  process.stdout.write(out);
  return out;
}

const site = join(work, 'site');
const csv = join(work, 'searches.csv');
try {
  console.log(`Sandbox API at ${sandbox.baseUrl}; working in ${work}`);
  await run('Settings come from the environment (the key is masked)', ['config', 'list']);
  await run('Start an agent job and wait for its pull request', [
    'agent',
    'run',
    'Document the new /v2/users endpoint',
    '--wait',
    '--interval',
    '200ms',
  ]);

  console.log('\n== Start a job without waiting, then send it a follow-up');
  const id = (await capture(['agent', 'run', 'Tidy the FAQ page'])).split(/\s+/)[0] ?? '';
  await run('The follow-up goes to the same job', [
    'agent',
    'message',
    id,
    'Also add a curl example',
    '--wait',
    '--interval',
    '200ms',
  ]);
  sandbox.faults.inject({ route: 'agent.get', status: 503, times: 4 });
  await run('A wait sits out an API outage (the sandbox answers 503 four times)', [
    'agent',
    'get',
    id,
    '--wait',
    '--interval',
    '200ms',
  ]);
  await run(
    'A job that fails ends with exit 4',
    ['agent', 'run', 'Rewrite everything [fail]', '--wait', '--interval', '200ms'],
    4,
  );
  // Both static export flows: the CLI says on stderr which one it used ("Static export: the ... flow").
  await run('Export the docs site as static files on the project-scoped flow (no domain: the project id picks it)', [
    'export',
    'run',
    '-o',
    site,
    '--interval',
    '200ms',
  ]);
  sandbox.faults.exportFlows.delete('project');
  await run(
    'The same on an API that serves only the jobs flow: give the domain (a pasted URL is cut to its hostname)',
    ['export', 'run', 'https://docs.example.com/', '-o', site, '--force', '--interval', '200ms'],
  );
  sandbox.faults.exportFlows.add('project');
  // The sandbox's data ends at the start of today (UTC): the last seven whole days.
  const daysAgo = (/** @type {number} */ n) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
  await run('Export a week of search terms to CSV for a spreadsheet (--to is exclusive)', [
    'searches',
    'list',
    '--from',
    daysAgo(7),
    '--to',
    daysAgo(0),
    '--all',
    '--format',
    'csv',
    '-o',
    csv,
  ]);
  await run('The top five terms as a table', ['searches', 'list', '--limit', '5']);
  await run('Which pages readers voted down (one request: the API serves one page of counts)', [
    'analytics',
    'feedback',
    '--by-page',
    '--limit',
    '5',
  ]);
  await run('What readers are looking for and not finding: the content-gap report, within 25 requests', [
    'analytics',
    'gaps',
    '--top',
    '8',
  ]);
  const db = join(work, 'analytics.duckdb');
  await run(
    'Pull two weeks of analytics into a local DuckDB database within 55 requests (what the weekly report compares first, as far as --from reaches)',
    [
      'analytics',
      'sync',
      '--db',
      db,
      '--from',
      daysAgo(14),
      '--max-requests',
      '55',
      '--parquet',
      join(work, 'parquet'),
    ],
  );
  await run(
    'Run it again: the requests every command sent this hour count, so it stops at 100 and says when to go on',
    ['analytics', 'sync', '--db', db, '--from', daysAgo(14)],
  );
  await run("See the hour's requests as this machine counts them (no request; --reset starts over)", [
    'analytics',
    'budget',
  ]);
  // An analyst's first hour on a site not synced before (a second sandbox of ~600 pages, so its own
  // hourly budget): one sync reads the two complete weeks the report compares first, each whole at
  // once, and leaves the daily detail to later runs; the report is then whole.
  const fresh = await startSandbox({ analytics: { pages: 600 } });
  try {
    const freshEnv = {
      ...env,
      MINTLIFY_API_URL: fresh.baseUrl,
      MINTLIFY_ADMIN_API_KEY: fresh.apiKey,
      MINTLIFY_PROJECT_ID: fresh.projectId,
    };
    await run(
      'A new site: one sync of 100 requests reads the two weeks the report compares first, whole (daily detail comes in later runs)',
      ['analytics', 'sync', '--from', daysAgo(21), '--max-requests', '100'],
      0,
      freshEnv,
    );
    await run(
      'Ask it anything in SQL (read-only; no request spent)',
      [
        'analytics',
        'query',
        'SELECT date_from, date_to, sum(human) AS people, sum(ai) AS agents FROM views_by_range GROUP BY ALL ORDER BY 1 DESC',
      ],
      0,
      freshEnv,
    );
    await run(
      'What changed last week against the week before, for a step summary (--format slack for a webhook)',
      ['analytics', 'report'],
      0,
      freshEnv,
    );
  } finally {
    await fresh.close();
  }

  const files = readdirSync(site, { recursive: true }).length;
  const csvBytes = readFileSync(csv).length;
  // The working directory is removed below unless KEEP_DEMO is set: name it only when it stays.
  const kept = process.env.KEEP_DEMO
    ? `, all kept in ${work}`
    : ` (${work} is removed as the demo ends; KEEP_DEMO=1 keeps it)`;
  console.log(`\nDone: a pull request link, ${files} entries of a static site, ${csvBytes} bytes of CSV${kept}.`);
} finally {
  await sandbox.close();
  if (!process.env.KEEP_DEMO) rmSync(work, { recursive: true, force: true });
}
