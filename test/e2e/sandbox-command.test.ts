import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('mint-admin sandbox', () => {
  it('prints ready-to-source settings, serves the API with that key, and stops cleanly on Ctrl-C', async () => {
    let answered: { status: number; body: { searches: unknown[] } } | undefined;
    const result = await runCli(['sandbox'], {
      onSpawn: (child) => {
        let out = '';
        child.stdout!.on('data', async (chunk: Buffer) => {
          out += chunk.toString();
          if (out.split('\n').length < 4 || answered) return;
          const vars = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
          const res = await fetch(
            `${vars.MINTLIFY_API_URL}/v1/analytics/${vars.MINTLIFY_PROJECT_ID}/searches?limit=3`,
            {
              headers: { authorization: `Bearer ${vars.MINTLIFY_ADMIN_API_KEY}` },
            },
          );
          answered = { status: res.status, body: (await res.json()) as { searches: unknown[] } };
          child.kill('SIGINT');
        });
      },
    });
    expect(result.stdout).toMatch(
      /^export MINTLIFY_API_URL=http:\/\/127\.0\.0\.1:\d+\nexport MINTLIFY_ADMIN_API_KEY=mint_\w+\nexport MINTLIFY_PROJECT_ID=\w+\n$/,
    );
    expect(answered?.status).toBe(200);
    expect(answered?.body.searches).toHaveLength(3);
    expect(result.code).toBe(0);
  });

  it.each([['99999'], ['http'], ['-1']])('refuses --port %s with exit 2', async (port) => {
    const r = await runCli(['sandbox', '--port', port]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--port: .* is not a port number/);
  });

  it('--flows project serves only the project-scoped export flow, and says so', async () => {
    let statuses: number[] = [];
    const result = await runCli(['sandbox', '--flows', 'project'], {
      onSpawn: (child) => {
        let out = '';
        child.stdout!.on('data', async (chunk: Buffer) => {
          out += chunk.toString();
          if (out.split('\n').length < 4 || statuses.length > 0) return;
          const vars = Object.fromEntries([...out.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
          const post = (path: string, body: unknown) =>
            fetch(`${vars.MINTLIFY_API_URL}${path}`, {
              method: 'POST',
              headers: { authorization: `Bearer ${vars.MINTLIFY_ADMIN_API_KEY}`, 'content-type': 'application/json' },
              body: JSON.stringify(body),
            });
          statuses = [
            (await post('/v1/static-export/jobs', { domain: 'docs.example.com' })).status,
            (await post(`/v1/static-export/${vars.MINTLIFY_PROJECT_ID}/jobs`, {})).status,
          ];
          child.kill('SIGINT');
        });
      },
    });
    expect(statuses).toEqual([404, 202]);
    expect(result.stderr).toContain('Static export flows served: project (switch with --flows).\n');
    expect(result.code).toBe(0);
  });

  it.each([['nope'], [''], ['jobs,zip']])('refuses --flows %j with exit 2', async (flows) => {
    const r = await runCli(['sandbox', '--flows', flows]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: --flows: "${flows}" is not a list of static export flows; use jobs, project or jobs,project\n`,
    );
  });
});
