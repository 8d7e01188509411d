// The flow of an existing job, against per-test loopback servers whose route tables fail on anything
// unexpected: the id's shape is only a hint, a 404 tries the other flow once, and what answered is
// remembered so the next command goes straight there.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { json, startServer, type Handler } from '../helpers/server.js';

const KEY = 'mint_flowtest0123456789';
const PROJECT = 'proj_1';
const AT = '2026-11-23T10:00:00.000Z';
const LATER = '2026-11-23T10:02:05.000Z';

let home: ReturnType<typeof tempDir>;
beforeEach(() => {
  home = tempDir();
});
afterEach(() => home.cleanup());

async function withServer(
  routes: Record<string, Handler>,
  runs: Array<{ args: string[]; env?: Record<string, string> }>,
) {
  const server = await startServer(routes);
  try {
    const results = [];
    for (const run of runs) {
      const from = server.requests.length;
      const r = await runCli(run.args, {
        env: {
          MINTLIFY_API_URL: server.url,
          MINTLIFY_ADMIN_API_KEY: KEY,
          HOME: home.path,
          XDG_CONFIG_HOME: join(home.path, 'xdg'),
          ...run.env,
        },
      });
      results.push({ ...r, requests: server.requests.slice(from).map((q) => `${q.method} ${q.url}`) });
    }
    expect(server.unexpected).toEqual([]);
    return results;
  } finally {
    await server.close();
  }
}

const projectJob = (jobId: string, extra: Record<string, unknown> = {}) => ({
  jobId,
  status: 'running',
  createdAt: AT,
  updatedAt: AT,
  error: null,
  ...extra,
});
const notFound = json(404, { error: 'No job exists with the provided ID.' });
const withProject = { MINTLIFY_PROJECT_ID: PROJECT };

describe('the flow of an existing job', () => {
  it('an id that looks like the jobs flow but lives on the project flow: one fallback, then remembered', async () => {
    const [first, second] = await withServer(
      {
        'GET /v1/static-export/jobs/job_abc': notFound,
        [`GET /v1/static-export/${PROJECT}/jobs/job_abc`]: json(
          200,
          projectJob('job_abc', {
            status: 'completed',
            updatedAt: LATER,
            bundleUrl: 'https://storage.example/x.tar.gz',
            sizeBytes: 10,
            expiresAt: '2099-01-01T00:00:00.000Z',
          }),
        ),
      },
      [
        { args: ['export', 'status', 'job_abc'], env: withProject },
        { args: ['export', 'status', 'job_abc'], env: withProject },
      ],
    );
    expect(first!.code).toBe(0);
    expect(first!.stdout).toBe('job_abc  completed  2m05s\n');
    expect(first!.stderr).toBe(
      'Static export: the project flow (no job job_abc on the jobs flow)\nDownload it with: mint-admin export download job_abc -o ./site\n',
    );
    expect(first!.requests).toEqual([
      'GET /v1/static-export/jobs/job_abc',
      `GET /v1/static-export/${PROJECT}/jobs/job_abc`,
    ]);
    expect(second!.stderr.split('\n')[0]).toBe('Static export: the project flow (job job_abc is remembered there)');
    expect(second!.requests).toEqual([`GET /v1/static-export/${PROJECT}/jobs/job_abc`]);
  });

  it('a 24-hex id goes to the project flow first, and falls back to the jobs flow on a 404', async () => {
    const id = '6520f3a1c9b1a20012ab34cd';
    const [r] = await withServer(
      {
        [`GET /v1/static-export/${PROJECT}/jobs/${id}`]: notFound,
        [`GET /v1/static-export/jobs/${id}`]: json(200, {
          jobId: id,
          status: 'running',
          progress: 40,
          pageCount: 12,
          createdAt: AT,
          updatedAt: AT,
        }),
      },
      [{ args: ['export', 'status', id], env: withProject }],
    );
    expect(r!.code).toBe(0);
    expect(r!.stdout).toBe(`${id}  running  40%  12 pages\n`);
    expect(r!.requests).toEqual([`GET /v1/static-export/${PROJECT}/jobs/${id}`, `GET /v1/static-export/jobs/${id}`]);
  });

  it('a 24-hex id without a project id can only be a jobs-flow job', async () => {
    const id = '6520f3a1c9b1a20012ab34cd';
    const [r] = await withServer({ [`GET /v1/static-export/jobs/${id}`]: notFound }, [
      { args: ['export', 'status', id] },
    ]);
    expect(r!.code).toBe(1);
    expect(r!.stderr).toBe(
      `error: no static export job ${id} (404: No job exists with the provided ID.); check the job id that \`mint-admin export start\` printed\n`,
    );
    expect(r!.requests).toEqual([`GET /v1/static-export/jobs/${id}`]);
  });

  it('a completed project job without its link is an answer the CLI cannot use: exit 1 naming what is missing', async () => {
    const id = '6520f3a1c9b1a20012ab34cd';
    const [r] = await withServer(
      {
        [`GET /v1/static-export/${PROJECT}/jobs/${id}`]: json(
          200,
          projectJob(id, { status: 'completed', sizeBytes: 10 }),
        ),
      },
      [{ args: ['export', 'bundle', id], env: withProject }],
    );
    expect(r!.code).toBe(1);
    expect(r!.stderr).toBe(
      `error: unexpected answer from the API to GET /v1/static-export/{projectId}/jobs/{jobId}: job ${id} is completed but bundleUrl, expiresAt are missing\n`,
    );
  });

  it('a failed project job: bundle is exit 4 with the reason', async () => {
    const id = '6520f3a1c9b1a20012ab34cd';
    const [r] = await withServer(
      {
        [`GET /v1/static-export/${PROJECT}/jobs/${id}`]: json(
          200,
          projectJob(id, { status: 'failed', error: 'render failed' }),
        ),
      },
      [{ args: ['export', 'bundle', id], env: withProject }],
    );
    expect(r!.code).toBe(4);
    expect(r!.stderr).toBe(`error: export ${id} failed: render failed\n`);
  });

  it('a project job id from the server that is not a plain token is refused', async () => {
    const [r] = await withServer(
      { [`POST /v1/static-export/${PROJECT}/jobs`]: json(202, projectJob('../x', { status: 'queued' })) },
      [{ args: ['export', 'start'], env: withProject }],
    );
    expect(r!.code).toBe(1);
    expect(r!.stderr).toMatch(
      /^error: unexpected answer from the API: the export job id "\.\.\/x" is not a plain token .*; the export was started: see it in the Mintlify dashboard\n$/,
    );
  });
});
