// `npm run demo`: the main job end to end against a local sandbox of the Admin API, printing each
// command as a user would type it. Nothing here touches the real API or your config.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../dist/sandbox/index.js';

const cli = fileURLToPath(new URL('../bin/mint-admin.js', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'mint-admin-demo-'));
const sandbox = await startSandbox();
const env = {
  ...process.env,
  MINTLIFY_API_URL: sandbox.baseUrl,
  MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
  MINTLIFY_PROJECT_ID: sandbox.projectId,
  XDG_CONFIG_HOME: join(work, 'config'),
};

function run(title, args) {
  console.log(`\n== ${title}\n$ mint-admin ${args.map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
  const result = spawnSync(process.execPath, [cli, ...args], { env, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`step "${title}" exited ${result.status}`);
}

const site = join(work, 'site');
const csv = join(work, 'searches.csv');
try {
  console.log(`Sandbox API at ${sandbox.baseUrl}; working in ${work}`);
  run('Settings come from the environment (the key is masked)', ['config', 'list']);
  run('Start an agent job and wait for its pull request', ['agent', 'run', 'Document the new /v2/users endpoint', '--wait', '--interval', '200ms']);
  run('Export the docs site as static files, ready to self-host', ['export', 'run', 'docs.example.com', '-o', site, '--interval', '200ms']);
  run('Export every search term to CSV for a spreadsheet', ['searches', 'list', '--all', '--format', 'csv', '-o', csv]);
  run('The top five terms as a table', ['searches', 'list', '--limit', '5']);

  const files = readdirSync(site, { recursive: true }).length;
  const rows = readFileSync(csv, 'utf8').trimEnd().split('\n').length - 1;
  console.log(`\nDone: a pull request link, ${files} entries in ${site}, ${rows} search terms in ${csv}.`);
} finally {
  await sandbox.close();
  if (!process.env.KEEP_DEMO) rmSync(work, { recursive: true, force: true });
}
