import { gunzipSync } from 'node:zlib';
import { Parser, type ReadEntry } from 'tar';
import type { Sandbox } from '../../src/sandbox/index.js';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One API call with the sandbox's key unless `headers` says otherwise. */
export async function call<T = any>(
  sandbox: Sandbox,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = { authorization: `Bearer ${sandbox.apiKey}` },
): Promise<JsonResponse<T>> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const res = await fetch(`${sandbox.baseUrl}${path}`, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (HTML fault pages, XML storage errors): tests look at `text`.
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export const agentPath = (sandbox: Sandbox, suffix = '') => `/v2/agent/${sandbox.projectId}/job${suffix}`;

/** Starts an export and polls it to completion, returning the bundle response. */
export async function completedExport(
  sandbox: Sandbox,
  domain = 'docs.example.com',
): Promise<{ jobId: string; bundleUrl: string; sizeBytes: number; expiresAt: string }> {
  const start = await call(sandbox, 'POST', '/v1/static-export/jobs', { domain });
  let status = start.body.status as string;
  for (let i = 0; i < 20 && status !== 'completed'; i++) {
    status = (await call(sandbox, 'GET', `/v1/static-export/jobs/${start.body.jobId}`)).body.status;
  }
  const bundle = await call(sandbox, 'POST', `/v1/static-export/jobs/${start.body.jobId}/bundle`);
  if (bundle.status !== 200) throw new Error(`bundle failed: ${bundle.status} ${bundle.text}`);
  return bundle.body;
}

/** gunzip + untar in memory: regular files by path. */
export async function untarGz(archive: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const parser = new Parser();
  parser.on('entry', (entry: ReadEntry) => {
    const chunks: Buffer[] = [];
    entry.on('data', (chunk: Buffer) => chunks.push(chunk));
    entry.on('end', () =>
      files.set(entry.type === 'File' ? entry.path : `${entry.type}:${entry.path}`, Buffer.concat(chunks)),
    );
  });
  await new Promise<void>((resolve, reject) => {
    parser.on('end', () => resolve());
    parser.on('error', reject);
    parser.end(gunzipSync(archive));
  });
  return files;
}
