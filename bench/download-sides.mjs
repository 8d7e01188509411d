// What the download benchmarks share (download.mjs on the sandbox's bundles, download-mixes.mjs on
// every kind of bundle): a sandbox export made ready to download, the baseline side (`curl | tar` on
// the same link), and pairs of runs whose first side alternates.
import { join } from 'node:path';
import { measure, settleDisk } from './measure.mjs';

/** @import { Sandbox } from '../src/sandbox/index.js' */
/** @import { Measured } from './measure.mjs' */
/** @typedef {{ sandbox: Sandbox; jobId: string; env: Record<string, string>; sizeBytes: number }} CompletedExport */

/**
 * One call to the sandbox's API, its JSON answer as the benchmark expects it (the sandbox is ours).
 * @param {Sandbox} sandbox
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function sandboxApi(sandbox, method, path, body) {
  const res = await fetch(`${sandbox.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}`);
  return res.json();
}

/**
 * A completed export of the sandbox (its archive made, untimed), and the CLI's environment for it.
 * @param {Sandbox} sandbox
 * @param {string} configHome
 * @returns {Promise<CompletedExport>}
 */
export async function completedExport(sandbox, configHome) {
  sandbox.faults.exportPollsToFinish = 0;
  const { jobId } = await sandboxApi(sandbox, 'POST', '/v1/static-export/jobs', { domain: 'docs.example.com' });
  while ((await sandboxApi(sandbox, 'GET', `/v1/static-export/jobs/${jobId}`)).status !== 'completed');
  const { sizeBytes } = await sandboxApi(sandbox, 'POST', `/v1/static-export/jobs/${jobId}/bundle`);
  const env = {
    MINTLIFY_API_URL: sandbox.baseUrl,
    MINTLIFY_ADMIN_API_KEY: sandbox.apiKey,
    MINTLIFY_PROJECT_ID: sandbox.projectId,
    XDG_CONFIG_HOME: join(configHome, 'xdg'),
  };
  return { sandbox, jobId, env, sizeBytes };
}

/**
 * One run of curl | tar into `dir`, on a fresh link asked for beforehand (untimed).
 * @param {CompletedExport} exp
 * @param {string} dir
 */
export async function runCurlTar(exp, dir) {
  const { bundleUrl } = await sandboxApi(exp.sandbox, 'POST', `/v1/static-export/jobs/${exp.jobId}/bundle`);
  settleDisk();
  const result = await measure('/bin/sh', [
    '-c',
    'mkdir -p "$2" && curl -sf "$1" | tar -xzf - -C "$2"',
    'sh',
    bundleUrl,
    dir,
  ]);
  if (result.code !== 0) throw new Error(`curl | tar exited ${result.code}: ${result.stderr}`);
  return result;
}

/**
 * `count` runs of each side, the first side alternating (A B, B A, A B ...).
 * @template T
 * @param {number} count
 * @param {() => Promise<T>} ours
 * @param {() => Promise<T>} theirs
 */
export async function alternatingPairs(count, ours, theirs) {
  /** @type {{ ours: T[]; theirs: T[] }} */
  const results = { ours: [], theirs: [] };
  for (let i = 0; i < count; i++) {
    const pair = [async () => results.ours.push(await ours()), async () => results.theirs.push(await theirs())];
    for (const side of i % 2 === 0 ? pair : pair.reverse()) await side();
  }
  return results;
}

/**
 * User + system CPU seconds of a run, from /usr/bin/time -v (undefined without it).
 * @param {Measured} result
 */
export function cpuSeconds(result) {
  const user = /User time \(seconds\): ([\d.]+)/.exec(result.stderr);
  const system = /System time \(seconds\): ([\d.]+)/.exec(result.stderr);
  return user && system ? Number(user[1]) + Number(system[1]) : undefined;
}
