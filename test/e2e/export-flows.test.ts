// The two static export flows through the built CLI against the sandbox (which serves both, each
// switchable off): each flow end to end, auto-detection with either flow missing, the remembered
// choice, the project flow's 409 / 429 / 403 on GET, its link refresh by GET, and a zip where a tar.gz
// was expected.
import {
  existsSync,
  lstatSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOW_LINES, JOB_ID, PROJECT_JOB_ID, useExportSandbox } from './export-helpers.js';

const t = useExportSandbox();
const FAST = ['--interval', '100ms'];

/** The CLI with the sandbox's project id, as a project-flow user has it set. */
const cli = (args: string[], env: Record<string, string> = {}) =>
  t.cli(args, { env: { MINTLIFY_PROJECT_ID: t.sandbox.projectId, ...env } });
const projectJobs = () => `/v1/static-export/${t.sandbox.projectId}/jobs`;
const cacheFile = () => join(t.dir, '..', 'xdg', 'mint-admin', 'export-flows.json');
/** API requests as `METHOD /path`, storage ones as `storage GET`. */
const lines = (list: { origin: string; method: string; path: string }[]) =>
  list.map((r) => (r.origin === 'storage' ? `storage ${r.method}` : `${r.method} ${r.path}`));

function fileCount(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

describe('each flow end to end, with the same command line', () => {
  it("project flow: export run without a domain starts, polls and downloads from the job's own link (no bundle call)", async () => {
    const out = join(t.dir, 'site');
    const seen = t.watchRequests();
    const r = await cli(['export', 'run', '-o', out, ...FAST, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(Object.keys(summary).sort()).toEqual(['bundle', 'bytes', 'directory', 'files', 'jobId', 'pages']);
    expect(summary.jobId).toMatch(PROJECT_JOB_ID);
    expect(summary).toMatchObject({
      directory: resolve(out),
      files: (await t.sandbox.bundleFiles()).size,
      pages: null,
    });
    expect(fileCount(out)).toBe((await t.sandbox.bundleFiles()).size);
    expect(r.stderr.split('\n')[0]).toBe(FLOW_LINES.projectNoDomain);
    const polls = t.sandbox.faults.exportPollsToFinish;
    expect(lines(seen.list)).toEqual([
      `POST ${projectJobs()}`,
      ...Array.from({ length: polls }, () => `GET ${projectJobs()}/${summary.jobId}`),
      'storage GET',
    ]);
    expect(seen.list[0]!.body).toEqual({});
  });

  it('project flow: human progress has status and elapsed time, no invented percentage', async () => {
    const r = await cli(['export', 'run', '-o', join(t.dir, 'site'), ...FAST]);
    expect(r.code).toBe(0);
    const stderr = r.stderr.replace(/\b\d+s\b/g, 'Ns');
    expect(stderr).toMatch(/^Static export: the project flow \(no domain given\)\nStarted export [0-9a-f]{24}\n/);
    expect(stderr).toContain('Exporting · running · Ns\n');
    expect(stderr).toContain('Exported in Ns\n');
    expect(stderr).not.toMatch(/%|pages/);
    expect(stderr).toMatch(/Done: exported; \d+ files \(.+\) in .+\n$/);
  });

  it('jobs flow: a domain picks it even with a project id set; pages are reported', async () => {
    const out = join(t.dir, 'site');
    const seen = t.watchRequests();
    const r = await cli(['export', 'run', 'docs.example.com', '-o', out, ...FAST, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.jobId).toMatch(JOB_ID);
    expect(typeof summary.pages).toBe('number');
    expect(r.stderr.split('\n')[0]).toBe(FLOW_LINES.jobsByDomain);
    expect(lines(seen.list)[0]).toBe('POST /v1/static-export/jobs');
    expect(lines(seen.list).at(-2)).toBe(`POST /v1/static-export/jobs/${summary.jobId}/bundle`);
  });

  it('--base-path is sent on the project flow, and a value the API does not take is refused before sending', async () => {
    const seen = t.watchRequests();
    const r = await cli(['export', 'start', '--base-path', 'docs/']);
    expect(r.code).toBe(0);
    expect(seen.list.map((q) => q.body)).toEqual([{ basePath: '/docs' }]);
    const bad = await cli(['export', 'start', '--base-path', '/guides']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      "error: --base-path: \"/guides\" is not one the API accepts; use '' (the site's root), /docs or /documentation\n",
    );
    expect(seen.list).toHaveLength(1);
  });
});

describe('auto-detection: a 404 on the start route tries the other flow once, and is remembered', () => {
  it('jobs flow switched off: the same `export run <domain>` succeeds on the project flow, and the next run goes straight there', async () => {
    t.sandbox.faults.exportFlows.delete('jobs');
    const seen = t.watchRequests();
    const first = await cli(['export', 'run', 'docs.example.com', '-o', join(t.dir, 'a'), ...FAST]);
    expect(first.code).toBe(0);
    expect(first.stderr.split('\n')[0]).toBe(
      'Static export: the project flow (POST /v1/static-export/jobs answered 404 here)',
    );
    const firstStarts = lines(seen.list).filter((l) => l.startsWith('POST'));
    expect(firstStarts).toEqual(['POST /v1/static-export/jobs', `POST ${projectJobs()}`]);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(cacheFile(), 'utf8')).bases[t.sandbox.baseUrl].flow).toBe('project');

    const again = t.watchRequests();
    const second = await cli(['export', 'run', 'docs.example.com', '-o', join(t.dir, 'b'), ...FAST]);
    expect(second.code).toBe(0);
    expect(second.stderr.split('\n')[0]).toBe(
      `Static export: the project flow (it worked last time with ${t.sandbox.baseUrl})`,
    );
    expect(lines(again.list).filter((l) => l.startsWith('POST'))).toEqual([`POST ${projectJobs()}`]);
  });

  it('project flow switched off: `export run` with a domain works as before (no project call), without one says to give the domain', async () => {
    t.sandbox.faults.exportFlows.delete('project');
    const withDomain = await cli(['export', 'run', 'docs.example.com', '-o', join(t.dir, 'a'), ...FAST]);
    expect(withDomain.code).toBe(0);
    expect(withDomain.stderr.split('\n')[0]).toBe(FLOW_LINES.jobsByDomain);

    const seen = t.watchRequests();
    const without = await cli(['export', 'run', '-o', join(t.dir, 'b'), ...FAST]);
    expect(without.code).toBe(2);
    expect(without.stderr).toBe(
      "error: this API has no project-flow export route (POST /v1/static-export/{projectId}/jobs answered 404: Not Found); the jobs flow needs the deployment's domain: give it, e.g. `mint-admin export run docs.example.com -o ./site`\n",
    );
    expect(lines(seen.list)).toEqual([`POST ${projectJobs()}`]);
    expect(existsSync(join(t.dir, 'b'))).toBe(false);
  });

  it('jobs flow switched off and no project id: says exactly what to pass', async () => {
    t.sandbox.faults.exportFlows.delete('jobs');
    const r = await t.cli(['export', 'start', 'docs.example.com']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'error: this API has no jobs-flow export route (POST /v1/static-export/jobs answered 404: Not Found); the project flow needs a project id: pass --project <id>, set MINTLIFY_PROJECT_ID, or run `mint-admin config set project-id <id>`\n',
    );
  });

  it('a start that follows the domain rule, or a forced flow, teaches auto nothing: a domain still picks the jobs flow', async () => {
    expect((await cli(['export', 'start'])).code).toBe(0);
    t.sandbox.faults.reset(); // a new epoch: the job still running does not block the next start (409)
    expect((await cli(['export', 'start', 'docs.example.com'], { MINT_ADMIN_EXPORT_API: 'project' })).code).toBe(0);
    const r = await cli(['export', 'start', 'docs.example.com']);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(FLOW_LINES.jobsByDomain);
  });

  it('neither a domain nor a project id: exit 3 before anything is sent', async () => {
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'run', '-o', join(t.dir, 'site')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      "error: no project id: pass --project <id>, set MINTLIFY_PROJECT_ID, or run `mint-admin config set project-id <id>` (or give the deployment's domain, e.g. `mint-admin export run docs.example.com`)\n",
    );
    expect(seen.list).toEqual([]);
  });

  it('status, bundle and download of a started job use the flow remembered for it', async () => {
    const start = await cli(['export', 'start', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    const seen = t.watchRequests();
    const status = await cli(['export', 'status', id, '--wait', ...FAST]);
    expect(status.code).toBe(0);
    expect(status.stderr.split('\n')[1]).toBe(FLOW_LINES.remembered('project', id));
    expect(new Set(lines(seen.list))).toEqual(new Set([`GET ${projectJobs()}/${id}`]));
  });
});

describe('the export-api setting', () => {
  it('forces a flow: --export-api jobs without a domain is exit 2, nothing sent', async () => {
    const seen = t.watchRequests();
    const r = await cli(['export', 'run', '-o', join(t.dir, 'site'), '--export-api', 'jobs']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: the jobs flow (export-api jobs, from --export-api) needs the deployment's domain: give it, e.g. `mint-admin export run docs.example.com -o ./site`\n",
    );
    expect(seen.list).toEqual([]);
  });

  it('MINT_ADMIN_EXPORT_API=project sends a domain-given start to the project flow, and refuses jobs-only flags', async () => {
    const seen = t.watchRequests();
    const r = await cli(['export', 'start', 'docs.example.com', '--json'], { MINT_ADMIN_EXPORT_API: 'project' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('Static export: the project flow (export-api project, from MINT_ADMIN_EXPORT_API)\n');
    expect(lines(seen.list)).toEqual([`POST ${projectJobs()}`]);
    const flags = await cli(['export', 'start', '--path', 'index'], { MINT_ADMIN_EXPORT_API: 'project' });
    expect(flags.code).toBe(2);
    expect(flags.stderr).toBe(
      'error: --path belongs to the jobs flow, but export-api is project (from MINT_ADMIN_EXPORT_API); drop it or use --export-api jobs\n',
    );
    expect(seen.list).toHaveLength(1);
  });

  it.each([
    [
      'a domain with --base-path (export run, even with -q)',
      ['export', 'run', 'docs.example.com', '--base-path', '/docs', '-o', 'site', '-q'],
      "error: --base-path belongs to the project flow, but export-api auto chooses the jobs flow when a domain is given; drop the domain (the project flow exports the project's deployment) or drop --base-path\n",
    ],
    [
      'a domain with --base-path (export start)',
      ['export', 'start', 'docs.example.com', '--base-path', '/docs'],
      "error: --base-path belongs to the project flow, but export-api auto chooses the jobs flow when a domain is given; drop the domain (the project flow exports the project's deployment) or drop --base-path\n",
    ],
    [
      'no domain with --export-version',
      ['export', 'start', '--export-version', 'v2'],
      "error: --export-version belongs to the jobs flow, but export-api auto chooses the project flow when no domain is given; give the deployment's domain (e.g. `mint-admin export start docs.example.com`) or drop --export-version\n",
    ],
    [
      'no domain with --path',
      ['export', 'run', '-o', 'site', '--path', 'index'],
      "error: --path belongs to the jobs flow, but export-api auto chooses the project flow when no domain is given; give the deployment's domain (e.g. `mint-admin export start docs.example.com`) or drop --path\n",
    ],
  ])('under auto, a flag the chosen flow cannot honour is exit 2, nothing sent: %s', async (_n, args, message) => {
    const seen = t.watchRequests();
    const r = await t.cli(args, { env: { MINTLIFY_PROJECT_ID: t.sandbox.projectId }, cwd: t.dir });
    expect(r.stderr).toBe(message);
    expect(r.code).toBe(2);
    expect(seen.list).toEqual([]);
  });

  it('a remembered project flow honours --base-path with a domain given', async () => {
    t.sandbox.faults.exportFlows.delete('jobs');
    // A whole run, so no export is still running (409) when the next one starts.
    expect((await cli(['export', 'run', 'docs.example.com', '-o', join(t.dir, 'first'), ...FAST])).code).toBe(0);
    const seen = t.watchRequests();
    const r = await cli(['export', 'start', 'docs.example.com', '--base-path', '/docs']);
    expect(r.stderr.split('\n')[0]).toBe(
      `Static export: the project flow (it worked last time with ${t.sandbox.baseUrl})`,
    );
    expect(r.code).toBe(0);
    expect(seen.list.map((q) => q.body)).toEqual([{ basePath: '/docs' }]);
  });

  it('a fallback to a flow that cannot honour a flag is refused, not done without it', async () => {
    t.sandbox.faults.exportFlows.delete('jobs');
    const seen = t.watchRequests();
    const r = await cli(['export', 'start', 'docs.example.com', '--path', 'index']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'error: this API has no jobs-flow export route (POST /v1/static-export/jobs answered 404), and the project flow cannot honour --path; drop it to export the whole site on the project flow\n',
    );
    expect(seen.list.map((q) => q.body)).toEqual([{ domain: 'docs.example.com', paths: ['index'] }]);
  });

  it.each([
    [
      'the environment',
      ['export', 'status', 'se_1'],
      { MINT_ADMIN_EXPORT_API: 'v2' },
      'error: MINT_ADMIN_EXPORT_API: "v2" is not a static export flow; use one of auto, jobs, project\n',
    ],
    [
      'the flag',
      ['export', 'status', 'se_1', '--export-api', 'v2'],
      {},
      "error: option '--export-api <flow>' argument 'v2' is invalid. Allowed choices are auto, jobs, project.\n",
    ],
  ])('a bad value from %s is exit 2, nothing sent', async (_n, args, env, message) => {
    const seen = t.watchRequests();
    const r = await cli(args, env);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(message);
    expect(seen.list).toEqual([]);
  });
});

describe("the project flow's own answers", () => {
  it('409 on start: exit 1, "already running", and the hint to follow the job the answer names', async () => {
    const first = await cli(['export', 'start', '--json']);
    const id = JSON.parse(first.stdout).jobId as string;
    const r = await cli(['export', 'start']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: an export of this deployment is already running (409: A static export job (${id}) is already in progress for this deployment. Wait for it to complete before starting a new one.); follow it with \`mint-admin export status ${id} --wait\` and start again once it has finished\n`,
    );
  });

  it('a project id given by flag is repeated in every hint, so the printed command works pasted as it is', async () => {
    // No project id in the environment: only --project names it, and the project flow's routes need it.
    const project = ['--project', t.sandbox.projectId];
    const start = await t.cli(['export', 'start', ...project]);
    expect(start.code).toBe(0);
    const id = start.stdout.trimEnd();
    expect(id).toMatch(PROJECT_JOB_ID);
    const follow = `mint-admin export status ${id} --wait --project ${t.sandbox.projectId}`;
    expect(start.stderr).toBe(`${FLOW_LINES.projectNoDomain}\nexport ${id}: queued\nFollow it with: ${follow}\n`);
    const again = await t.cli(['export', 'start', ...project]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`; follow it with \`${follow}\` and start again once it has finished\n$`));
    const notYet = await t.cli(['export', 'download', id, '-o', join(t.dir, 'site'), ...project]);
    expect(notYet.code).toBe(1);
    expect(notYet.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: job ${id} not finished yet (running); add --wait to wait for it and then download, or wait with \`${follow}\``,
    );
    // The hint, run as printed (without the environment's project id), follows the job to the end.
    const pasted = await t.cli([...follow.split(' ').slice(1), ...FAST]);
    expect(pasted.code).toBe(0);
    expect(pasted.stderr.trimEnd().split('\n').at(-1)).toBe(
      `Download it with: mint-admin export download ${id} -o ./site --project ${t.sandbox.projectId}`,
    );
  });

  it('409 that names no job: says to wait for it', async () => {
    t.sandbox.faults.inject({ route: 'export.project.start', status: 409, body: { error: 'busy' } });
    const r = await cli(['export', 'start']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: an export of this deployment is already running (409: busy); wait for it to finish (see the Mintlify dashboard), then start again\n',
    );
  });

  it('429 on start: exit 6 naming the 10-starts-per-hour limit (the sandbox enforces it too)', async () => {
    t.sandbox.faults.projectStartsPerHour = 1;
    t.sandbox.faults.exportPollsToFinish = 1;
    const first = await cli(['export', 'start', '--wait', ...FAST]);
    expect(first.code).toBe(0);
    const r = await cli(['export', 'start']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(
      /^error: rate limited by the API \(Rate limit exceeded: at most 1 static export jobs per organization per hour\); static export allows 10 job starts per organization per hour; try again in 1h00m \(after \S+\)\n$/,
    );
  });

  it('403 on GET: exit 3 with the Enterprise plan message', async () => {
    const start = await cli(['export', 'start', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    t.sandbox.faults.exportForbidden = true;
    const r = await cli(['export', 'status', id]);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      'error: static export needs an Enterprise plan (403: Static export is not enabled for this deployment. Contact sales@mintlify.com to upgrade.); ask Mintlify to enable it for your organization, or check that the admin key belongs to it\n',
    );
  });

  it('status shows status and elapsed time; --json is the job object as returned', async () => {
    const start = await cli(['export', 'start', '--json']);
    const job = JSON.parse(start.stdout);
    expect(Object.keys(job).sort()).toEqual(['createdAt', 'error', 'jobId', 'status', 'updatedAt']);
    expect(job).toMatchObject({ status: 'queued', error: null });
    const human = await cli(['export', 'status', job.jobId]);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(new RegExp(`^${job.jobId}  running  \\d+s\\n$`));
    expect(human.stderr).toBe(
      `${FLOW_LINES.remembered('project', job.jobId)}\nFollow it with: mint-admin export status ${job.jobId} --wait\n`,
    );
    const done = await cli(['export', 'status', job.jobId, '--wait', ...FAST, '--json']);
    const completed = JSON.parse(done.stdout);
    expect(Object.keys(completed).sort()).toEqual([
      'bundleUrl',
      'createdAt',
      'error',
      'expiresAt',
      'jobId',
      'sizeBytes',
      'status',
      'updatedAt',
    ]);
    expect(completed.status).toBe('completed');
  });

  it('bundle GETs the job and prints its link; before completion it says to wait', async () => {
    const start = await cli(['export', 'start', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    const early = await cli(['export', 'bundle', id]);
    expect(early.code).toBe(1);
    expect(early.stderr).toBe(
      `error: job ${id} not finished yet (running); wait with \`mint-admin export status ${id} --wait\`\n`,
    );
    await cli(['export', 'status', id, '--wait', ...FAST]);
    const seen = t.watchRequests();
    const r = await cli(['export', 'bundle', id, '--json']);
    expect(r.code).toBe(0);
    const bundle = JSON.parse(r.stdout);
    expect(Object.keys(bundle).sort()).toEqual(['bundleUrl', 'expiresAt', 'jobId', 'sizeBytes']);
    expect(bundle.bundleUrl).toMatch(
      new RegExp(`^${t.sandbox.storageUrl}/${id}/sandbox-export-\\d{4}-\\d\\d-\\d\\d\\.tar\\.gz\\?`),
    );
    expect(lines(seen.list)).toEqual([`GET ${projectJobs()}/${id}`]);
  });

  it('an expired link is refreshed by a GET of the job, and the download completes', async () => {
    const start = await cli(['export', 'start', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    await cli(['export', 'status', id, '--wait', ...FAST]);
    t.sandbox.faults.expireNextLinks(1);
    const seen = t.watchRequests();
    const out = join(t.dir, 'site');
    const r = await cli(['export', 'download', id, '-o', out]);
    expect(r.code).toBe(0);
    expect(lines(seen.list)).toEqual([
      `GET ${projectJobs()}/${id}`,
      'storage GET',
      `GET ${projectJobs()}/${id}`,
      'storage GET',
    ]);
    expect(fileCount(out)).toBe((await t.sandbox.bundleFiles()).size);
  });

  it("download before completion: says to add --wait; with --wait, the last poll's link is used (no extra GET)", async () => {
    const start = await cli(['export', 'start', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    const out = join(t.dir, 'site');
    const early = await cli(['export', 'download', id, '-o', out]);
    expect(early.code).toBe(1);
    expect(early.stderr).toBe(
      `${FLOW_LINES.remembered('project', id)}\nerror: job ${id} not finished yet (running); add --wait to wait for it and then download, or wait with \`mint-admin export status ${id} --wait\`\n`,
    );
    const seen = t.watchRequests();
    const waited = await cli(['export', 'download', id, '-o', out, '--wait', ...FAST]);
    expect(waited.code).toBe(0);
    const gets = lines(seen.list).filter((l) => l.startsWith('GET'));
    expect(gets.every((l) => l === `GET ${projectJobs()}/${id}`)).toBe(true);
    // Each GET moves the sandbox's job one step (the refused download took the first): the rest are
    // the steps to completion, and none after it, since the completed job carried the link.
    expect(gets).toHaveLength(t.sandbox.faults.exportPollsToFinish - 1);
    expect(lines(seen.list).at(-1)).toBe('storage GET');
  });

  it('a forced flow does not fall back: a jobs-flow job asked for on the project flow is a 404', async () => {
    const start = await cli(['export', 'start', 'docs.example.com', '--json']);
    const id = JSON.parse(start.stdout).jobId as string;
    await cli(['export', 'status', id, '--wait', ...FAST]);
    const seen = t.watchRequests();
    const r = await cli(['export', 'bundle', id], { MINT_ADMIN_EXPORT_API: 'project' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error: no static export job ${id} (404: No static export job with ID ${id}); check the job id that \`mint-admin export start\` printed\n`,
    );
    expect(lines(seen.list)).toEqual([`GET ${projectJobs()}/${id}`]);
  });
});

describe('the archive is checked by its first bytes', () => {
  it.each([
    ['a zip', Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200)]), 'a zip archive'],
    [
      'an HTML page',
      Buffer.from('<!DOCTYPE html><html><body>Access denied</body></html>'),
      'an HTML page (an error page from the storage or a proxy?)',
    ],
    ['JSON', Buffer.from('{"error":"nope"}'), 'JSON (an error message?)'],
  ])('%s where a tar.gz was expected: exit 1 naming it, nothing created', async (_n, bytes, what) => {
    t.sandbox.setBundleArchive(bytes);
    const out = join(t.dir, 'site');
    const r = await cli(['export', 'run', '-o', out, ...FAST]);
    expect(r.code).toBe(1);
    const id = /Started export ([0-9a-f]{24})/.exec(r.stderr)![1]!;
    // The export is complete: the way out is downloading it, never a new export.
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(
      `error: the downloaded bundle is ${what}, not a tar.gz archive (gzip data starts with the bytes 1f 8b); nothing was installed; if it persists, report it to Mintlify; export ${id} is complete and stays on the server: download it with \`mint-admin export download ${id} -o ${out}\``,
    );
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(t.dir)).toEqual([]);
  });
});

describe('the flow cache', () => {
  it('is never written through a symlink planted at its path, and a malformed one is ignored', async () => {
    const dir = join(t.dir, '..', 'xdg', 'mint-admin');
    mkdirSync(dir, { recursive: true });
    const victim = join(t.dir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    symlinkSync(victim, cacheFile());
    const r = await cli(['export', 'start']);
    expect(r.code).toBe(0);
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(lstatSync(cacheFile()).isFile()).toBe(true);
    expect(statSync(cacheFile()).mode & 0o777).toBe(0o600);

    writeFileSync(cacheFile(), '{not json');
    const again = await cli([
      'export',
      'status',
      JSON.parse((await cli(['export', 'start', 'docs.example.com', '--json'])).stdout).jobId,
    ]);
    expect(again.code).toBe(0);
  });
});
