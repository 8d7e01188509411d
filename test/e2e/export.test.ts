import { describe, expect, it } from 'vitest';
import { FLOW_LINES, JOB_ID, useExportSandbox } from './export-helpers.js';

const t = useExportSandbox();
const FAST = ['--interval', '100ms'];

describe('export start: the domain', () => {
  it.each([
    ['https://docs.example.com/', 'docs.example.com'],
    ['http://Docs.Example.com', 'docs.example.com'],
    ['acme.mintlify.app/', 'acme.mintlify.app'],
  ])('sends the hostname of %s and says so on stderr', async (given, hostname) => {
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'start', given]);
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`note: using the hostname ${hostname} (from "${given}")`);
    expect(seen.list.map((q) => q.body)).toEqual([{ domain: hostname }]);
  });

  it.each([
    ['a port', 'docs.example.com:8443', 'it has a port'],
    ['a path', 'https://docs.example.com/docs', 'it has a path, query or fragment'],
    ['a space', 'docs .example.com', 'it contains a space'],
    ['an empty label', 'docs..example.com', 'it has an empty label'],
    ['a label over 63 characters', `${'x'.repeat(64)}.example.com`, 'longer than 63 characters'],
    ['an underscore', 'docs_v2.example.com', 'may hold only letters, digits and inner hyphens'],
  ])('refuses a domain with %s: exit 2 and nothing sent', async (_n, given, why) => {
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'start', given]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: "${given}" is not a domain the export API accepts: `);
    expect(r.stderr).toContain(why);
    expect(seen.list).toEqual([]);
  });

  it('refuses bad wait flags before sending anything', async () => {
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'start', 'docs.example.com', '--wait', '--timeout', 'soon']);
    expect(r.code).toBe(2);
    expect(seen.list).toEqual([]);
  });
});

describe('export start', () => {
  it('off a terminal: the job id alone on stdout, its status and how to follow it on stderr', async () => {
    const r = await t.cli(['export', 'start', 'docs.example.com']);
    expect(r.code).toBe(0);
    const id = r.stdout.trimEnd();
    expect(id).toMatch(JOB_ID);
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toBe(
      `${FLOW_LINES.jobsByDomain}\nexport ${id}: queued\nFollow it with: mint-admin export status ${id} --wait\n`,
    );
  });

  it('sends --export-version as version and --path as paths', async () => {
    const seen = t.watchRequests();
    const r = await t.cli([
      'export',
      'start',
      'docs.example.com',
      '--export-version',
      '2024-06-01',
      '--path',
      'index',
      'guides/getting-started',
    ]);
    expect(r.code).toBe(0);
    expect(seen.list.map((q) => q.body)).toEqual([
      { domain: 'docs.example.com', version: '2024-06-01', paths: ['index', 'guides/getting-started'] },
    ]);
  });

  it('--json prints the job object, and only that, on stdout', async () => {
    const r = await t.cli(['export', 'start', 'docs.example.com', '--json']);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout);
    expect(Object.keys(job).sort()).toEqual(['createdAt', 'jobId', 'pageCount', 'progress', 'status', 'updatedAt']);
    expect(job).toMatchObject({ status: 'queued', progress: 0, pageCount: 0 });
    expect(r.stderr).toBe(`${FLOW_LINES.jobsByDomain}\n`);
  });

  it('--wait follows the job to completed and prints the final job', async () => {
    const r = await t.cli(['export', 'start', 'docs.example.com', '--wait', ...FAST, '--json']);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout);
    expect(job).toMatchObject({ status: 'completed', progress: 100 });
    expect(r.stderr).toContain(`Exported ${job.pageCount} pages in `);
  });

  it("answers a 403 (no Enterprise plan) with exit 3 and the server's message", async () => {
    const r = await t.cli(['export', 'start', 'noplan.example.com']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'error: static export needs an Enterprise plan (403: Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan.); ask Mintlify to enable it for your organization, or check that the admin key belongs to it\n',
    );
  });

  it('answers a 429 on start with exit 6', async () => {
    t.sandbox.faults.inject({ route: 'export.start', status: 429, retryAfter: 3600 });
    const r = await t.cli(['export', 'start', 'docs.example.com']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^error: rate limited by the API/);
  });
});

describe('export status', () => {
  it('prints status, progress and pages', async () => {
    const id = await t.exportJob('docs.example.com', false);
    const r = await t.cli(['export', 'status', id, '--json']);
    expect(r.code).toBe(0);
    const job = JSON.parse(r.stdout);
    expect(job).toMatchObject({ jobId: id, status: 'running', progress: 25 });
    const human = await t.cli(['export', 'status', id]);
    expect(human.stdout).toMatch(new RegExp(`^${id}  running  50%  \\d+ pages\\n$`));
    expect(human.stderr).toBe(`${FLOW_LINES.jobsById}\nFollow it with: mint-admin export status ${id} --wait\n`);
  });

  it('--wait polls to completed: plain progress lines on stderr, the final job on stdout, exit 0', async () => {
    const id = await t.exportJob('docs.example.com', false);
    const r = await t.cli(['export', 'status', id, '--wait', ...FAST]);
    expect(r.code).toBe(0);
    const pages = /(\d+) pages\n$/.exec(r.stdout)?.[1];
    expect(r.stdout).toBe(`${id}  completed  100%  ${pages} pages\n`);
    const stderr = r.stderr.replace(/ \d+s\b/g, ' Ns');
    expect(stderr).toBe(
      [
        `Waiting for export ${id} (Ctrl-C stops waiting; the export keeps running)`,
        // The wait's first poll settles the flow (under the --timeout deadline), then says which.
        FLOW_LINES.jobsById,
        `Exporting [#####---------------] 25% · ${Math.floor(Number(pages) / 4)} pages · Ns`,
        `Exported ${pages} pages in Ns`,
        `Download it with: mint-admin export download ${id} -o ./site`,
        '',
      ].join('\n'),
    );
    expect(stderr).not.toMatch(/\r|\x1b/);
  });

  it("--wait on a failing export exits 4 with the job's error", async () => {
    const id = await t.exportJob('fail.example.com', false);
    const r = await t.cli(['export', 'status', id, '--wait', ...FAST]);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').pop()).toBe(
      `error: export ${id} failed: Rendering fail.example.com failed: the deployment could not be reached`,
    );
  });

  it('--wait gives up at --timeout with exit 5 and the command to resume', async () => {
    t.sandbox.faults.exportPollsToFinish = 10_000;
    const id = await t.exportJob('docs.example.com', false);
    const r = await t.cli(['export', 'status', id, '--wait', '--timeout', '1s', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr.trimEnd().split('\n').pop()).toMatch(
      new RegExp(
        `^error: export ${id} did not finish within 1s \\(last seen running, 0%, 0 pages\\); it keeps running on the server: resume with \`mint-admin export status ${id} --wait\`$`,
      ),
    );
  });

  it('--wait survives a 502 and a 429 along the way', async () => {
    const id = await t.exportJob('docs.example.com', false);
    t.sandbox.faults.inject({ route: 'export.get', status: 502, times: 1 });
    t.sandbox.faults.inject({ route: 'export.get', status: 429, retryAfter: 0, times: 1 });
    const seen = t.watchRequests();
    const r = await t.cli(['export', 'status', id, '--wait', ...FAST, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ jobId: id, status: 'completed' });
    expect(seen.list.length).toBeGreaterThanOrEqual(2 + t.sandbox.faults.exportPollsToFinish);
  });

  it('a 404 is a clear error', async () => {
    const r = await t.cli(['export', 'status', 'se_doesnotexist']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: no static export job se_doesnotexist (404: No static export job with ID se_doesnotexist); check the job id that `mint-admin export start` printed\n',
    );
  });
});

describe('export bundle', () => {
  it('prints the link alone on stdout, size and expiry on stderr', async () => {
    const id = await t.exportJob();
    const r = await t.cli(['export', 'bundle', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      new RegExp(`^${t.sandbox.storageUrl}/${id}/bundle\\.tar\\.gz\\?\\S*X-Amz-Signature=[0-9a-f]+\\n$`),
    );
    expect(r.stderr).toMatch(
      /^Static export: the jobs flow \(the job id looks like a jobs-flow id\)\n\d+\.\d KB; the link expires at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(in 1[45]m\d\ds\)\. Treat it as a secret until then\.\n$/,
    );
  });

  it('--json prints the bundle response', async () => {
    const id = await t.exportJob();
    const r = await t.cli(['export', 'bundle', id, '--json']);
    expect(r.code).toBe(0);
    const bundle = JSON.parse(r.stdout);
    expect(Object.keys(bundle).sort()).toEqual(['bundleUrl', 'expiresAt', 'jobId', 'sizeBytes']);
    expect(bundle.jobId).toBe(id);
  });

  it('before the job completes: exit 1, saying how to wait for it', async () => {
    const id = await t.exportJob('docs.example.com', false);
    const r = await t.cli(['export', 'bundle', id]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: job ${id} not finished yet (409: Job ${id} is queued; wait until its status is completed); wait with \`mint-admin export status ${id} --wait\`\n`,
    );
  });
});
