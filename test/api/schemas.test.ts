// The boundary against the documents: every schema in src/api/schemas.ts is compared, field by field,
// with the OpenAPI component it names (openapi/*.json, read here as JSON): the same properties,
// the same required ones (plus those the CLI needs, each with its reason), the same types, nullables
// and enums. A schema that is not registered with its source fails too, so none can be added unchecked.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GenericSchema } from 'valibot';
import * as schemas from '../../src/api/schemas.js';
import { checkAnswer, SOURCES, type SchemaSource } from '../../src/api/schemas.js';

const API_DIR = new URL('../../openapi/', import.meta.url);

interface OpenApiSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: string[];
  required?: string[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
}

type OpenApiDoc = {
  components?: { schemas?: Record<string, OpenApiSchema> };
  paths: Record<
    string,
    Record<
      string,
      { summary?: string; responses: Record<string, { content: Record<string, { schema: OpenApiSchema }> }> }
    >
  >;
};

function component(source: SchemaSource): OpenApiSchema {
  const doc = JSON.parse(readFileSync(new URL(source.file, API_DIR), 'utf8')) as OpenApiDoc;
  let node: unknown = source.response ? inlineAnswer(doc, source) : doc.components?.schemas?.[source.name];
  for (const key of source.pointer?.split('.') ?? []) node = (node as Record<string, unknown>)[key];
  if (!node) throw new Error(`${source.file}#${source.name} ${source.pointer ?? ''} not found`);
  return resolveRefs(node, doc.components?.schemas ?? {}) as OpenApiSchema;
}

/** `{ "$ref": "#/components/schemas/X" }` replaced by X (views and visitors name their totals so). */
function resolveRefs(node: unknown, components: Record<string, OpenApiSchema>): unknown {
  if (Array.isArray(node)) return node.map((n) => resolveRefs(n, components));
  if (typeof node !== 'object' || node === null) return node;
  const ref = (node as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return resolveRefs(components[ref.replace('#/components/schemas/', '')], components);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolveRefs(v, components)]));
}

/** An answer written inline under paths: `METHOD /path STATUS`, named by the operation's summary. */
function inlineAnswer(doc: OpenApiDoc, source: SchemaSource): OpenApiSchema | undefined {
  const [method, path, status] = source.response!.split(' ');
  const operation = doc.paths[path!]?.[method!.toLowerCase()];
  if (operation?.summary !== source.name)
    throw new Error(
      `${source.file} ${source.response}: summary ${JSON.stringify(operation?.summary)}, expected ${JSON.stringify(source.name)}`,
    );
  return operation.responses[status!]?.content['application/json']?.schema;
}

/** A field as both sides can say it: `integer`, `string|null`, `enum:a,b`, `object`, `array`. */
interface Shape {
  required: boolean;
  type: string;
  nullable: boolean;
  enum?: string[];
  node: ValibotNode;
}

interface ValibotNode {
  type: string;
  wrapped?: ValibotNode;
  pipe?: Array<{ type: string }>;
  options?: ValibotNode[] | string[];
  entries?: Record<string, ValibotNode>;
  item?: ValibotNode;
}

function shapeOf(schema: ValibotNode): Shape {
  let node = schema;
  let required = true;
  let nullable = false;
  for (;;) {
    if (node.type === 'optional') required = false;
    else if (node.type === 'nullable') nullable = true;
    else break;
    node = node.wrapped!;
  }
  if (node.type === 'union') {
    // A status: the documented picklist, or any other string kept as UnknownStatus.
    const [known, other] = node.options as ValibotNode[];
    expect(known!.type).toBe('picklist');
    expect(other!.type).toBe('string');
    return { required, nullable, type: 'string', enum: known!.options as string[], node };
  }
  if (node.type === 'picklist') return { required, nullable, type: 'string', enum: node.options as string[], node };
  const integer = node.pipe?.some((step) => step.type === 'integer') ?? false;
  const type = node.type === 'loose_object' || node.type === 'object' ? 'object' : integer ? 'integer' : node.type;
  return { required, nullable, type, node };
}

function documentedShape(field: OpenApiSchema, required: boolean): Omit<Shape, 'node'> {
  const types = Array.isArray(field.type) ? field.type : [field.type ?? 'object'];
  const nullable = types.includes('null') || field.nullable === true;
  const type = types.find((t) => t !== 'null') ?? 'object';
  return { required, nullable, type, ...(field.enum ? { enum: field.enum } : {}) };
}

/** Every difference between a valibot object schema and its OpenAPI object, as readable lines. */
function compare(path: string, node: ValibotNode, doc: OpenApiSchema, source: SchemaSource): string[] {
  const problems: string[] = [];
  const entries = node.entries ?? {};
  const properties = doc.properties ?? {};
  const documentedRequired = new Set(doc.required ?? []);
  const alsoRequired = path === '' ? (source.alsoRequired ?? {}) : {};
  for (const name of Object.keys(alsoRequired)) {
    if (documentedRequired.has(name))
      problems.push(`${path}${name}: listed in alsoRequired but the document requires it already`);
  }
  for (const name of new Set([...Object.keys(entries), ...Object.keys(properties)])) {
    const at = `${path}${name}`;
    if (!entries[name]) {
      problems.push(`${at}: documented but not in the schema`);
      continue;
    }
    if (!properties[name]) {
      problems.push(`${at}: in the schema but not documented`);
      continue;
    }
    const ours = shapeOf(entries[name]!);
    const required = documentedRequired.has(name) || name in alsoRequired;
    const theirs = documentedShape(properties[name]!, source.lenient ? ours.required : required);
    const { node: child, ...comparable } = ours;
    if (JSON.stringify(comparable) !== JSON.stringify(theirs)) {
      problems.push(`${at}: schema ${JSON.stringify(comparable)} but document ${JSON.stringify(theirs)}`);
    }
    if (ours.type === 'object') problems.push(...compare(`${at}.`, child, properties[name]!, source));
    // A union of objects (the feedback item) is checked variant by variant: each is registered itself.
    if (
      ours.type === 'array' &&
      child.item!.type === 'union' &&
      (child.item!.options as ValibotNode[]).every((o) => o.type === 'loose_object')
    )
      continue;
    if (ours.type === 'array') {
      const item = shapeOf(child.item!);
      if (item.type === 'object') problems.push(...compare(`${at}[].`, item.node, properties[name]!.items!, source));
    }
  }
  return problems;
}

const named = [...SOURCES.entries()].map(
  ([schema, source]) =>
    [`${source.file}#${source.name}${source.pointer ? `.${source.pointer}` : ''}`, schema, source] as const,
);
const registered = named.filter(([, , source]) => source.undocumented === undefined);
const undocumented = named.filter(([, , source]) => source.undocumented !== undefined);

describe('schemas follow the OpenAPI documents', () => {
  it('every exported schema names its source', () => {
    const exported = Object.entries(schemas).filter(
      ([, value]) =>
        typeof value === 'object' &&
        value !== null &&
        'kind' in value &&
        (value as { kind: unknown }).kind === 'schema',
    );
    expect(exported.length).toBeGreaterThanOrEqual(6);
    for (const [name, schema] of exported)
      expect(SOURCES.has(schema as GenericSchema), `${name} is not registered with documented()`).toBe(true);
  });

  it.each(registered)('%s: same fields, required ones, types, nullables and enums', (_name, schema, source) => {
    const node = schema as unknown as ValibotNode;
    // The lenient error body is a fallback around the object.
    const object = node.type === 'loose_object' ? node : (node.wrapped ?? node);
    expect(object.type).toBe('loose_object');
    expect(compare('', object, component(source), source)).toEqual([]);
  });

  it.each(undocumented)(
    '%s is not in its document yet (once it is, write its schema from it)',
    (_name, _schema, source) => {
      const [method, path] = source.response!.split(' ');
      const doc = JSON.parse(readFileSync(new URL(source.file, API_DIR), 'utf8')) as OpenApiDoc;
      expect(doc.paths[path!]?.[method!.toLowerCase()], source.undocumented).toBeUndefined();
    },
  );

  it('the comparison itself catches drift: a required field made optional is reported', () => {
    const source = SOURCES.get(schemas.StaticExportJob)!;
    const node = schemas.StaticExportJob as unknown as ValibotNode;
    const drifted = {
      ...node,
      entries: { ...node.entries!, pageCount: { type: 'optional', wrapped: node.entries!.pageCount! } },
    };
    expect(compare('', drifted, component(source), source)).toEqual([
      'pageCount: schema {"required":false,"nullable":false,"type":"integer"} but document {"required":true,"nullable":false,"type":"integer"}',
    ]);
  });
});

describe('checkAnswer names the first problem by field path, never by value', () => {
  const job = {
    jobId: 'se_1',
    status: 'running',
    progress: 42,
    pageCount: 3,
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:01:00Z',
  };
  const page = {
    searches: [{ searchQuery: 'q', hits: 1, ctr: 0.5, topClickedPage: null, lastSearchedAt: '2026-01-01' }],
    totalSearches: 1,
    nextCursor: null,
  };

  it.each([
    ['a missing required field', schemas.StaticExportJob, { ...job, pageCount: undefined }, 'pageCount is missing'],
    ['a wrong type', schemas.StaticExportJob, { ...job, progress: '42' }, 'progress should be a number, got a string'],
    [
      'a fraction where an integer is documented',
      schemas.StaticExportJob,
      { ...job, pageCount: 1.5 },
      'pageCount should be an integer',
    ],
    [
      'a negative count',
      schemas.SearchesResponse,
      { ...page, totalSearches: -1 },
      'totalSearches should not be negative',
    ],
    [
      'a nested field',
      schemas.SearchesResponse,
      { ...page, searches: [{ ...page.searches[0], lastSearchedAt: undefined }] },
      'searches.0.lastSearchedAt is missing',
    ],
    [
      'an array that is not one',
      schemas.SearchesResponse,
      { ...page, searches: {} },
      'searches should be an array, got an object',
    ],
    [
      'a status that is not a string',
      schemas.StaticExportJob,
      { ...job, status: 7 },
      'status should be a string, got a number',
    ],
    [
      'a date-time that is not one',
      schemas.StaticExportJob,
      { ...job, updatedAt: 'soon' },
      'updatedAt should be a date-time',
    ],
    [
      'a bundle link that is not a URL',
      schemas.BundleResponse,
      { jobId: 'se_1', bundleUrl: '\u001b[2Jnope', sizeBytes: 1, expiresAt: '2026-01-01T00:00:00Z' },
      'bundleUrl should be a URL',
    ],
    ['an array body', schemas.AgentJob, [], 'the body should be an object, got an array'],
  ])('%s', (_name, schema, body, problem) => {
    expect(checkAnswer(schema as GenericSchema, body)).toEqual({ ok: false, problem });
  });

  // JSON can hold 1e400; a double cannot, so JSON.parse makes it Infinity, which v.number() takes.
  it.each([
    [
      'a documented count',
      schemas.SearchesResponse,
      '{"searches":[{"searchQuery":"q","hits":1e400,"ctr":0.5,"topClickedPage":null,"lastSearchedAt":"2026-01-01"}],"totalSearches":1,"nextCursor":null}',
      'searches.0.hits is not a finite number (past what a 64-bit float holds)',
    ],
    [
      'a negative one',
      schemas.SearchesResponse,
      '{"searches":[{"searchQuery":"q","hits":1,"ctr":-1e999,"topClickedPage":null,"lastSearchedAt":"2026-01-01"}],"totalSearches":1,"nextCursor":null}',
      'searches.0.ctr is not a finite number (past what a 64-bit float holds)',
    ],
    [
      'a field no schema names',
      schemas.StaticExportJob,
      '{"jobId":"se_1","status":"running","progress":1,"pageCount":3,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:01:00Z","extra":{"deep":[0,1e400]}}',
      'extra.deep.1 is not a finite number (past what a 64-bit float holds)',
    ],
  ])('a number past a double, in %s, is a bad answer', (_name, schema, text, problem) => {
    expect(checkAnswer(schema as GenericSchema, JSON.parse(text))).toEqual({ ok: false, problem });
  });

  it('takes an answer nested 64 deep and refuses one nested 65 deep, at any depth of JSON.parse', () => {
    const nested = (levels: number) =>
      JSON.parse(
        `{"jobId":"se_1","status":"running","progress":1,"pageCount":3,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:01:00Z","x":${'['.repeat(levels)}${']'.repeat(levels)}}`,
      );
    expect(checkAnswer(schemas.StaticExportJob, nested(64)).ok).toBe(true);
    expect(checkAnswer(schemas.StaticExportJob, nested(65))).toEqual({
      ok: false,
      problem: `${['x', ...Array<string>(64).fill('0')].join('.')} is nested deeper than 64 levels`,
    });
    expect(checkAnswer(schemas.StaticExportJob, nested(100_000))).toEqual({
      ok: false,
      problem: `${['x', ...Array<string>(64).fill('0')].join('.')} is nested deeper than 64 levels`,
    });
  });

  it('keeps unknown fields and documented nulls untouched', () => {
    const answer = { ...job, error: null, addedLater: { nested: [1] } };
    expect(checkAnswer(schemas.StaticExportJob, answer)).toEqual({ ok: true, value: answer });
  });

  it('keeps an unknown status as sent (a newer API), known ones too', () => {
    expect(checkAnswer(schemas.StaticExportJob, { ...job, status: 'paused' })).toEqual({
      ok: true,
      value: { ...job, status: 'paused' },
    });
    const agent = { id: 'j', status: 'active' };
    expect(checkAnswer(schemas.AgentJob, agent)).toEqual({ ok: true, value: agent });
  });

  it('reads any error body without failing, keeping what fits', () => {
    expect(checkAnswer(schemas.ErrorBody, { error: 'x', details: [{ message: 'm' }] })).toEqual({
      ok: true,
      value: { error: 'x', details: [{ message: 'm' }] },
    });
    expect(checkAnswer(schemas.ErrorBody, { error: 5, details: 'no' })).toEqual({
      ok: true,
      value: { error: undefined, details: undefined },
    });
    expect(checkAnswer(schemas.ErrorBody, 'text')).toEqual({ ok: true, value: {} });
  });
});
