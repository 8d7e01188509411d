// The boundary: every answer body the client reads is checked here before any command sees it, against
// schemas that follow openapi/*.json. The types in types.ts are inferred from these, so the two
// cannot drift; test/api/schemas.test.ts compares each schema with its OpenAPI document.
//
// Rules every schema follows:
// - objects are loose: fields the API adds later pass through untouched (`--json` prints them);
// - what the document marks required is required, with the documented type; nullable means `| null`;
// - a status is checked against its documented enum, but an unknown one is kept, branded
//   `UnknownStatus`, rather than refused: `agent get` without --wait can still print a job whose status
//   is newer than this CLI, while every wait must decide what an unknown status means (it ends the wait,
//   exit 1), and the compiler makes it decide, because the brand does not fit the known union. The
//   waits narrow it without importing this module (which would load valibot): see isUnknown in
//   src/cli/commands/*/follow.ts.
//
// Adding an endpoint: a `documented({ file, name }, v.looseObject({...}))` here (test/api/schemas.test.ts
// then compares it with its document on its own), its type in types.ts (`Answer<typeof X>`), and a
// typed method in client.ts: `this.send('GET', '/v1/.../{projectId}', { projectId }, schemas.X)`.
import * as v from 'valibot';
import { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from './enums.js';

/** Where a schema comes from: the OpenAPI file and the components.schemas name. Read by the drift test. */
export interface SchemaSource {
  file: string;
  name: string;
  /** A path inside that component, when the schema is one part of it (e.g. `properties.searches.items`). */
  pointer?: string;
  /** Fields the CLI needs although the document does not mark them required, with the reason. */
  alsoRequired?: Record<string, string>;
  /** Checked leniently on purpose (error bodies: a failure is reported whatever its shape). */
  lenient?: string;
  /**
   * For an answer the document writes inline rather than under components.schemas: the operation and
   * response that holds it, `METHOD /path STATUS` with the path as the document spells it (openapi.json's
   * paths are relative to its `servers` entry, /v1). `name` is then the operation's summary.
   */
  response?: string;
  /**
   * For an endpoint the documents do not describe yet (the reason): nothing to compare with, so the
   * schema takes what the issue promises; test/api/schemas.test.ts fails once `response` appears in
   * `file`, so the real answer is then written here.
   */
  undocumented?: string;
}

export const SOURCES = new Map<v.GenericSchema, SchemaSource>();

function documented<S extends v.GenericSchema>(source: SchemaSource, schema: S): S {
  SOURCES.set(schema, source);
  return schema;
}

// ---- building blocks -----------------------------------------------------------------------------

/** A status the document does not list: printed as-is, but never mistaken for a known state. */
export type UnknownStatus = string & v.Brand<'UnknownStatus'>;

/** The documented enum, or any other string kept and branded (see the header). */
function status<const T extends readonly [string, ...string[]]>(known: T) {
  return v.union([v.picklist(known), v.pipe(v.string(), v.brand('UnknownStatus'))]);
}

/** `format: date-time`: any string Date.parse understands, so nothing downstream computes with NaN. */
const dateTime = v.pipe(
  v.string(),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'should be a date-time'),
);
/** Sizes and counts: whole and not negative (the documents say `minimum: 0` for some, mean it for all). */
const count = v.pipe(v.number(), v.integer('should be an integer'), v.minValue(0, 'should not be negative'));
const nullable = v.nullable;
/** Documented but not required: may be missing; `null` too when the document says nullable. */
const maybe = <S extends v.GenericSchema>(s: S) => v.optional(s);
const maybeNull = <S extends v.GenericSchema>(s: S) => v.optional(v.nullable(s));

// ---- agent (admin-openapi.json) ------------------------------------------------------------------

export const AGENT_JOB_STATUSES = ['active', 'completed', 'archived', 'failed'] as const;

export const AgentJob = documented(
  {
    file: 'admin-openapi.json',
    name: 'AgentJob',
    alsoRequired: {
      id: 'every command names the job by it, and a wait polls it',
      status: 'run, get and message decide what to do by it',
    },
  },
  v.looseObject({
    id: v.string(),
    status: status(AGENT_JOB_STATUSES),
    source: maybe(v.looseObject({ repository: maybe(v.string()), ref: maybeNull(v.string()) })),
    model: maybe(v.string()),
    prLink: maybeNull(v.string()),
    createdAt: maybe(dateTime),
    archivedAt: maybeNull(dateTime),
  }),
);

// ---- static export (static-export-openapi.json) --------------------------------------------------

export const EXPORT_JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

export const StaticExportJob = documented(
  { file: 'static-export-openapi.json', name: 'StaticExportJob' },
  v.looseObject({
    jobId: v.string(),
    status: status(EXPORT_JOB_STATUSES),
    // 0..100 in the document; not refused outside it, because every display clamps it anyway.
    progress: v.number(),
    pageCount: count,
    createdAt: dateTime,
    updatedAt: dateTime,
    /** Present only when status is `failed`. */
    error: maybeNull(v.string()),
  }),
);

export const BundleResponse = documented(
  { file: 'static-export-openapi.json', name: 'BundleResponse' },
  v.looseObject({
    jobId: v.string(),
    bundleUrl: v.pipe(v.string(), v.url('should be a URL')),
    sizeBytes: count,
    expiresAt: dateTime,
  }),
);

// ---- static export, project flow (static-export-project-openapi.json) -----------------------------

/**
 * The project-scoped flow's job: no progress or pageCount; once `completed` it carries the bundle link
 * itself (a GET again gives a fresh one). The three bundle fields are documented as present only then,
 * so they are optional here and the link step (export-flows/flow-api.ts) requires them.
 */
export const ProjectExportJob = documented(
  { file: 'static-export-project-openapi.json', name: 'StaticExportJob' },
  v.looseObject({
    jobId: v.string(),
    status: status(EXPORT_JOB_STATUSES),
    createdAt: dateTime,
    updatedAt: dateTime,
    error: maybeNull(v.string()),
    bundleUrl: maybe(v.pipe(v.string(), v.url('should be a URL'))),
    sizeBytes: maybe(count),
    expiresAt: maybe(dateTime),
  }),
);

// ---- analytics (analytics.openapi.json) ----------------------------------------------------------

export const SearchTerm = documented(
  { file: 'analytics.openapi.json', name: 'SearchesResponse', pointer: 'properties.searches.items' },
  v.looseObject({
    searchQuery: v.string(),
    hits: v.number(),
    ctr: v.number(),
    topClickedPage: nullable(v.string()),
    lastSearchedAt: v.string(),
  }),
);

export const SearchesResponse = documented(
  { file: 'analytics.openapi.json', name: 'SearchesResponse' },
  v.looseObject({
    searches: v.array(SearchTerm),
    totalSearches: count,
    nextCursor: nullable(v.string()),
  }),
);

// ---- deployments, previews and automations (openapi.json, admin-openapi.json) --------------------

export const UPDATE_STATUSES = ['queued', 'in_progress', 'success', 'failure'] as const;
export const UPDATE_SOURCES = [
  'internal',
  'github-app-installation',
  'api',
  'github',
  'dashboard',
  'gitlab',
  'onboarding',
] as const;

export const UpdateTriggered = documented(
  {
    file: 'openapi.json',
    name: 'Trigger update',
    response: 'POST /project/update/{projectId} 202',
    alsoRequired: { statusId: 'the one thing the call is for: it is printed and polled' },
  },
  v.looseObject({ statusId: v.string() }),
);

export const PreviewTriggered = documented(
  {
    file: 'openapi.json',
    name: 'Trigger preview deployment',
    response: 'POST /project/preview/{projectId} 202',
    alsoRequired: { statusId: 'printed and polled, as for a deployment' },
  },
  // previewUrl stays optional: without it the build can still be followed, and `preview start --wait`
  // says plainly that no link came rather than losing the statusId to a refused answer.
  v.looseObject({ statusId: v.string(), previewUrl: maybe(v.string()) }),
);

export const UpdateStatus = documented(
  {
    file: 'openapi.json',
    name: 'Get update status',
    response: 'GET /project/update-status/{statusId} 200',
    alsoRequired: { status: 'a wait ends by it and the exit code follows it' },
  },
  v.looseObject({
    _id: maybe(v.string()),
    projectId: maybe(v.string()),
    createdAt: maybe(dateTime),
    endedAt: maybe(dateTime),
    status: status(UPDATE_STATUSES),
    summary: maybe(v.string()),
    logs: maybe(v.array(v.string())),
    subdomain: maybe(v.string()),
    screenshot: maybe(v.string()),
    screenshotLight: maybe(v.string()),
    screenshotDark: maybe(v.string()),
    author: maybeNull(
      v.looseObject({ name: maybe(v.string()), avatarUrl: maybe(v.string()), githubUserId: maybe(v.number()) }),
    ),
    commit: maybe(
      v.looseObject({
        sha: maybe(v.string()),
        ref: maybe(v.string()),
        message: maybe(v.string()),
        filesChanged: maybe(
          v.looseObject({
            added: maybe(v.array(v.string())),
            modified: maybe(v.array(v.string())),
            removed: maybe(v.array(v.string())),
          }),
        ),
      }),
    ),
    // An unknown source is kept like an unknown status: it is only shown, never decided on.
    source: maybe(status(UPDATE_SOURCES)),
  }),
);

export const AutomationTriggered = documented(
  {
    file: 'openapi.json',
    name: 'Trigger automation',
    response: 'POST /workflow/{projectId}/{workflowSchemaId}/trigger 202',
    alsoRequired: { instanceId: "the run's id, which the command prints" },
  },
  v.looseObject({ schemaId: maybe(v.string()), instanceId: v.string(), jobId: maybe(v.string()) }),
);

export const AutomationWebhookQueued = documented(
  {
    file: 'admin-openapi.json',
    name: 'Trigger automation webhook',
    response: 'POST /v2/workflow/{projectId}/{workflowSchemaId}/webhook 202',
    alsoRequired: { runId: "the run's id, which the command prints" },
  },
  v.looseObject({ success: maybe(v.boolean()), runId: v.string() }),
);

/**
 * The Autopilot webhook's answer is not documented (the endpoint is, since autumn 2026): any JSON
 * object is accepted and kept whole; a `runId` is only read where it is a plain token (autopilotRunId).
 */
export const AutopilotTriggered = documented(
  {
    file: 'admin-openapi.json',
    name: 'Autopilot webhook',
    response: 'POST /v2/autopilot/{projectId}/webhook 202',
    undocumented: 'the answer of POST /v2/autopilot/{projectId}/webhook is not documented yet: any JSON object',
  },
  v.looseObject({}),
);

// Feedback, conversations, threads, caller stats, views, visitors: the analytics endpoints beyond
// searches (issue 15). Counts documented as `number` stay plain numbers (the document does not say
// integer); enums go through status() so a newer value is kept, not refused.

export { FEEDBACK_SOURCES, FEEDBACK_STATUSES };

const feedbackBase = {
  id: v.string(),
  path: v.string(),
  comment: nullable(v.string()),
  createdAt: nullable(v.string()),
  source: status(FEEDBACK_SOURCES),
  status: status(FEEDBACK_STATUSES),
};

/** `contextual`: page-level feedback, helpful or not, with an optional contact. */
export const ContextualFeedback = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackResponse', pointer: 'properties.feedback.items.anyOf.0' },
  v.looseObject({ ...feedbackBase, helpful: v.boolean(), contact: nullable(v.string()) }),
);

/** `code_snippet`: feedback on a code block, with the code it is about. */
export const CodeSnippetFeedback = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackResponse', pointer: 'properties.feedback.items.anyOf.1' },
  v.looseObject({ ...feedbackBase, code: v.string(), filename: nullable(v.string()), lang: nullable(v.string()) }),
);

/** `agent` and `thumbs_only`: the base fields only. */
export const BaseFeedback = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackResponse', pointer: 'properties.feedback.items.anyOf.2' },
  v.looseObject(feedbackBase),
);

export const FeedbackResponse = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackResponse' },
  v.looseObject({
    // The most specific variant first: the base one fits every item.
    feedback: v.array(v.union([ContextualFeedback, CodeSnippetFeedback, BaseFeedback])),
    nextCursor: nullable(v.string()),
    hasMore: v.boolean(),
  }),
);

export const PageFeedback = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackGroupedByPageResponse', pointer: 'properties.feedback.items' },
  v.looseObject({
    path: v.string(),
    thumbsUp: v.number(),
    thumbsDown: v.number(),
    code: v.number(),
    total: v.number(),
  }),
);

export const FeedbackByPageResponse = documented(
  { file: 'analytics.openapi.json', name: 'FeedbackGroupedByPageResponse' },
  v.looseObject({ feedback: v.array(PageFeedback), hasMore: v.boolean() }),
);

export const RESOLUTION_STATUSES = ['answered', 'unanswered'] as const;

export const Conversation = documented(
  { file: 'analytics.openapi.json', name: 'AssistantConversationsResponse', pointer: 'properties.conversations.items' },
  v.looseObject({
    id: v.string(),
    timestamp: v.string(),
    query: v.string(),
    response: v.string(),
    responseType: maybe(status(['answer', 'clarifying_question'])),
    sources: v.array(v.looseObject({ title: v.string(), url: v.string() })),
    resolutionStatus: status(RESOLUTION_STATUSES),
    queryCategory: nullable(v.string()),
    pageUrl: nullable(v.string()),
  }),
);

export const ConversationsResponse = documented(
  { file: 'analytics.openapi.json', name: 'AssistantConversationsResponse' },
  v.looseObject({ conversations: v.array(Conversation), nextCursor: nullable(v.string()), hasMore: v.boolean() }),
);

export const ThreadResponse = documented(
  { file: 'analytics.openapi.json', name: 'AssistantThreadResponse' },
  v.looseObject({
    threadId: v.string(),
    createdAt: v.string(),
    messages: v.array(
      v.looseObject({
        id: v.string(),
        role: status(['user', 'assistant']),
        content: v.string(),
        createdAt: v.string(),
      }),
    ),
  }),
);

export const CallerStatsResponse = documented(
  { file: 'analytics.openapi.json', name: 'AssistantCallerStatsResponse' },
  v.looseObject({ web: v.number(), api: v.number(), other: v.number(), total: v.number() }),
);

const trafficTotals = v.looseObject({ human: v.number(), ai: v.number(), total: v.number() });
const pageTraffic = v.looseObject({ path: v.string(), human: v.number(), ai: v.number(), total: v.number() });

export const ViewsResponse = documented(
  { file: 'analytics.openapi.json', name: 'ViewsByPageResponse' },
  v.looseObject({ totals: trafficTotals, views: v.array(pageTraffic), hasMore: v.boolean() }),
);

export const VisitorsResponse = documented(
  { file: 'analytics.openapi.json', name: 'VisitorsByPageResponse' },
  v.looseObject({ totals: trafficTotals, visitors: v.array(pageTraffic), hasMore: v.boolean() }),
);

// ---- error bodies --------------------------------------------------------------------------------

/**
 * `{ error }` everywhere; analytics adds `details`. Read leniently: the status already says it failed,
 * so a part of the body that does not fit is dropped rather than turned into a second error.
 */
export const ErrorBody = documented(
  {
    file: 'analytics.openapi.json',
    name: 'AnalyticsErrorResponse',
    lenient: 'a failure is reported whatever its body looks like',
  },
  v.fallback(
    v.looseObject({
      error: v.fallback(maybe(v.string()), undefined),
      details: v.fallback(maybe(v.array(v.looseObject({ message: v.string() }))), undefined),
    }),
    {},
  ),
);

// ---- checking an answer --------------------------------------------------------------------------

export type Answer<S extends v.GenericSchema> = v.InferOutput<S>;

/** The first problem with a body, as `<field path> <problem>`, or undefined when it fits. */
export function checkAnswer<S extends v.GenericSchema>(
  schema: S,
  body: unknown,
): { ok: true; value: v.InferOutput<S> } | { ok: false; problem: string } {
  // valibot takes an array for an object (it is one to `typeof`); no answer of the API is an array.
  if (Array.isArray(body) && schema.type === 'loose_object')
    return { ok: false, problem: 'the body should be an object, got an array' };
  const unbelievable = unbelievableAt(body);
  if (unbelievable !== undefined) return { ok: false, problem: unbelievable };
  const result = v.safeParse(schema, body);
  if (result.success) return { ok: true, value: result.output };
  return { ok: false, problem: describeIssue(result.issues[0]) };
}

/** Deeper than any answer of the API: printing (--json) and copying an answer recurse, and would overflow the stack. */
const MAX_ANSWER_DEPTH = 64;

/**
 * What no check of a field catches, as `<field path> <problem>`, or undefined: a number JSON.parse
 * made Infinity (`1e400` is valid JSON, not a double; v.number() takes it, and past this boundary it
 * became a null that a NOT NULL column refused, every run, at the same page), or nesting past
 * MAX_ANSWER_DEPTH. Walked with a stack, since an answer may nest deeper than a recursion can go.
 */
function unbelievableAt(body: unknown): string | undefined {
  type Node = { value: object; key: string; depth: number; parent: Node | undefined };
  const pathOf = (node: Node | undefined, key: string): string => {
    const keys = [key];
    for (let at = node; at?.parent !== undefined; at = at.parent) keys.unshift(at.key);
    return keys.join('.');
  };
  if (typeof body === 'number')
    return Number.isFinite(body) ? undefined : 'the body is not a finite number (past what a 64-bit float holds)';
  if (typeof body !== 'object' || body === null) return undefined;
  const stack: Node[] = [{ value: body, key: '', depth: 0, parent: undefined }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    for (const [key, value] of Object.entries(node.value)) {
      if (typeof value === 'number' && !Number.isFinite(value))
        return `${pathOf(node, key)} is not a finite number (past what a 64-bit float holds)`;
      if (typeof value !== 'object' || value === null) continue;
      if (node.depth + 1 > MAX_ANSWER_DEPTH)
        return `${pathOf(node, key)} is nested deeper than ${MAX_ANSWER_DEPTH} levels`;
      stack.push({ value, key, depth: node.depth + 1, parent: node });
    }
  }
  return undefined;
}

/**
 * `pageCount is missing`, `searches.0.hits should be a number, got a string`. The received value is
 * named by its kind only: it comes from the server and may hold anything, escape sequences included.
 */
function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = v.getDotPath(issue);
  const where = path ?? 'the body';
  const got = kindOf(issue.input);
  if (path !== null && issue.input === undefined) return `${where} is missing`;
  if (issue.type === 'check' || issue.type === 'integer' || issue.type === 'min_value' || issue.type === 'url') {
    return `${where} ${issue.message}`;
  }
  return `${where} should be ${expectedKind(issue)}, got ${got}`;
}

function expectedKind(issue: v.BaseIssue<unknown>): string {
  switch (issue.type) {
    case 'object':
    case 'loose_object':
      return 'an object';
    case 'array':
      return 'an array';
    case 'string':
    case 'union': // a status: a known one or any other string
      return 'a string';
    case 'number':
      return 'a number';
    default:
      return issue.expected ?? 'something else';
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return typeof value;
}
