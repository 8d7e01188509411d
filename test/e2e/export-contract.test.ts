// Contract: every request the CLI sends on either static export flow fits that flow's OpenAPI document
// (openapi/static-export-openapi.json, static-export-project-openapi.json). The built CLI runs
// against the sandbox, which records each request; each one is then matched to exactly one documented
// operation (method and path template, under the server's /v1), and its body checked against the
// operation's request schema: required fields, types, enums, and no field the document does not name.
// A lighter stand-in for a Prism proxy: no extra dependency, and it checks the same things we send.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { useExportSandbox } from './export-helpers.js';

const API_DIR = new URL('../../openapi/', import.meta.url);

interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

interface Operation {
  parameters?: Array<{ $ref?: string; name?: string; in?: string; required?: boolean }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
}

interface Document {
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Schema> };
}

const DOCUMENTS = {
  jobs: load('static-export-openapi.json'),
  project: load('static-export-project-openapi.json'),
};

function load(file: string): Document {
  return JSON.parse(readFileSync(new URL(file, API_DIR), 'utf8')) as Document;
}

/** The documented operations a request fits: `file METHOD template`. */
function operationsFor(
  method: string,
  path: string,
): Array<{ flow: keyof typeof DOCUMENTS; name: string; op: Operation; doc: Document }> {
  const found = [];
  for (const [flow, doc] of Object.entries(DOCUMENTS) as Array<[keyof typeof DOCUMENTS, Document]>) {
    const prefix = new URL(doc.servers[0]!.url).pathname.replace(/\/$/, '');
    for (const [template, item] of Object.entries(doc.paths)) {
      const pattern = new RegExp(`^${prefix}${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      const op = item[method.toLowerCase()];
      if (op && pattern.test(path)) found.push({ flow, name: `${method} ${prefix}${template}`, op, doc });
    }
  }
  return found;
}

function resolve(schema: Schema, doc: Document): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/components/schemas/', '');
  return doc.components.schemas![name]!;
}

/** Every way `value` breaks `schema`, as readable lines. */
function problems(value: unknown, schema: Schema, doc: Document, at = 'body'): string[] {
  const s = resolve(schema, doc);
  const out: string[] = [];
  if (s.enum && !s.enum.includes(value))
    out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  switch (s.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value))
        return [...out, `${at}: should be an object`];
      const record = value as Record<string, unknown>;
      for (const name of s.required ?? []) if (!(name in record)) out.push(`${at}.${name}: required but missing`);
      for (const [name, field] of Object.entries(record)) {
        const documented = s.properties?.[name];
        if (!documented) out.push(`${at}.${name}: not in the document`);
        else out.push(...problems(field, documented, doc, `${at}.${name}`));
      }
      break;
    }
    case 'array':
      if (!Array.isArray(value)) return [...out, `${at}: should be an array`];
      value.forEach((item, i) => out.push(...problems(item, s.items!, doc, `${at}[${i}]`)));
      break;
    case 'string':
      if (typeof value !== 'string') out.push(`${at}: should be a string`);
      break;
    case 'integer':
    case 'number':
      if (typeof value !== 'number') out.push(`${at}: should be a number`);
      break;
  }
  return out;
}

/** What is wrong with one recorded request against the documents; [] when it fits. */
function checkRequest(req: Pick<RecordedRequest, 'method' | 'path' | 'headers' | 'body'>): string[] {
  const path = req.path.split('?')[0]!;
  const matches = operationsFor(req.method, path);
  if (matches.length !== 1)
    return [
      `${req.method} ${path}: fits ${matches.length} documented operations (${matches.map((m) => m.name).join(', ') || 'none'})`,
    ];
  const { op, doc, name } = matches[0]!;
  const out: string[] = [];
  if (!/^Bearer mint_\S+$/.test(String(req.headers.authorization))) out.push(`${name}: no bearer admin key`);
  const schema = op.requestBody?.content['application/json']?.schema;
  if (req.body === undefined) {
    if (op.requestBody?.required) out.push(`${name}: the document requires a body`);
  } else if (!schema) {
    out.push(`${name}: sends a body the document does not describe`);
  } else {
    if (!String(req.headers['content-type']).startsWith('application/json'))
      out.push(`${name}: body without Content-Type application/json`);
    out.push(...problems(req.body, schema, doc).map((p) => `${name} ${p}`));
  }
  return out;
}

const t = useExportSandbox();
const FAST = ['--interval', '100ms'];

describe('the requests of both flows validate against their OpenAPI documents', () => {
  it.each([
    [
      'jobs',
      [
        'export',
        'run',
        'docs.example.com',
        '--export-version',
        '2024-06-01',
        '--path',
        'index',
        'guides/getting-started',
      ],
    ],
    ['project', ['export', 'run', '--base-path', '/docs']],
    ['project', ['export', 'run']],
  ])('%s flow: %j, then status and bundle of the job', async (flow, args) => {
    const env = { MINTLIFY_PROJECT_ID: t.sandbox.projectId };
    const seen = t.watchRequests();
    const run = await t.cli([...args, '-o', join(t.dir, 'site'), ...FAST, '--json'], { env });
    expect(run.code).toBe(0);
    const { jobId } = JSON.parse(run.stdout) as { jobId: string };
    expect((await t.cli(['export', 'status', jobId], { env })).code).toBe(0);
    expect((await t.cli(['export', 'bundle', jobId], { env })).code).toBe(0);
    const api = seen.list.filter((r) => r.origin === 'api');
    expect(api.length).toBeGreaterThanOrEqual(4);
    expect(api.flatMap(checkRequest)).toEqual([]);
    // Each request belongs to the flow the command used.
    expect(new Set(api.map((r) => operationsFor(r.method, r.path.split('?')[0]!)[0]!.flow))).toEqual(new Set([flow]));
  });

  it('the check itself fails on what the documents do not allow', () => {
    const auth = { authorization: 'Bearer mint_x', 'content-type': 'application/json' };
    expect(
      checkRequest({ method: 'POST', path: '/v1/static-export/jobs', headers: auth, body: { domain: 5, extra: true } }),
    ).toEqual([
      'POST /v1/static-export/jobs body.domain: should be a string',
      'POST /v1/static-export/jobs body.extra: not in the document',
    ]);
    expect(checkRequest({ method: 'POST', path: '/v1/static-export/jobs', headers: auth, body: undefined })).toEqual([
      'POST /v1/static-export/jobs: the document requires a body',
    ]);
    expect(
      checkRequest({ method: 'POST', path: '/v1/static-export/p1/jobs', headers: auth, body: { basePath: '/guides' } }),
    ).toEqual([
      'POST /v1/static-export/{projectId}/jobs body.basePath: "/guides" is not one of ["","/docs","/documentation"]',
    ]);
    expect(
      checkRequest({ method: 'POST', path: '/v1/static-export/p1/jobs/abc/bundle', headers: auth, body: undefined }),
    ).toEqual(['POST /v1/static-export/p1/jobs/abc/bundle: fits 0 documented operations (none)']);
    expect(checkRequest({ method: 'GET', path: '/v1/static-export/jobs/se_1', headers: {}, body: undefined })).toEqual([
      'GET /v1/static-export/jobs/{jobId}: no bearer admin key',
    ]);
  });
});
