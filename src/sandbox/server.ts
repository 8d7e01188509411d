import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AgentService } from './agent.js';
import type { DeployService } from './deploy.js';
import type { ExportService } from './export.js';
import type { Faults, RouteName } from './faults.js';
import { applyFault, HttpError, readJsonBody, sendReply, type BodySink, type Reply } from './http-util.js';
import type { SearchService } from './searches.js';
import type { AnalyticsService } from './analytics.js';

interface RouteContext {
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
}

interface Route {
  name: RouteName;
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle: (ctx: RouteContext) => Reply | Promise<Reply>;
}

export interface ApiDeps {
  apiKey: string;
  projectId: string;
  faults: Faults;
  agent: AgentService;
  exports: ExportService;
  searches: SearchService;
  deploy: DeployService;
  analytics: AnalyticsService;
  signal: AbortSignal;
}

function route(name: RouteName, method: Route['method'], path: string, handle: Route['handle']): Route {
  const source = path.replace(/:(\w+)/g, (_, key: string) => `(?<${key}>[^/]+)`);
  return { name, method, pattern: new RegExp(`^${source}$`), handle };
}

function routes(deps: ApiDeps): Route[] {
  const { agent, exports, searches, analytics, deploy } = deps;
  return [
    route('agent.create', 'POST', '/v2/agent/:projectId/job', (c) => agent.create(c.params.projectId ?? '', c.body)),
    route('agent.get', 'GET', '/v2/agent/:projectId/job/:id', (c) => agent.get(c.params.id ?? '')),
    route('agent.message', 'POST', '/v2/agent/:projectId/job/:id/message', (c) =>
      agent.message(c.params.id ?? '', c.body),
    ),
    route('export.start', 'POST', '/v1/static-export/jobs', (c) => exports.start(c.body)),
    route('export.get', 'GET', '/v1/static-export/jobs/:jobId', (c) => exports.get(c.params.jobId ?? '')),
    route('export.bundle', 'POST', '/v1/static-export/jobs/:jobId/bundle', (c) => exports.bundle(c.params.jobId ?? '')),
    route('export.project.start', 'POST', '/v1/static-export/:projectId/jobs', (c) => exports.projectStart(c.body)),
    route('export.project.get', 'GET', '/v1/static-export/:projectId/jobs/:jobId', (c) =>
      exports.projectGet(c.params.jobId ?? ''),
    ),
    route('searches.list', 'GET', '/v1/analytics/:projectId/searches', (c) => searches.list(c.query)),
    route('deploy.update', 'POST', '/v1/project/update/:projectId', () => deploy.update()),
    route('deploy.status', 'GET', '/v1/project/update-status/:statusId', (c) => deploy.status(c.params.statusId ?? '')),
    route('deploy.preview', 'POST', '/v1/project/preview/:projectId', (c) => deploy.preview(c.body)),
    route('automation.trigger', 'POST', '/v1/workflow/:projectId/:id/trigger', (c) =>
      deploy.trigger(c.params.id ?? ''),
    ),
    route('automation.webhook', 'POST', '/v2/workflow/:projectId/:id/webhook', (c) =>
      deploy.webhook(c.params.id ?? ''),
    ),
    route('autopilot.webhook', 'POST', '/v2/autopilot/:projectId/webhook', (c) => deploy.autopilot(c.body)),
    route('feedback.list', 'GET', '/v1/analytics/:projectId/feedback', (c) => analytics.feedback(c.query)),
    route('feedback.byPage', 'GET', '/v1/analytics/:projectId/feedback/by-page', (c) =>
      analytics.feedbackByPage(c.query),
    ),
    route('assistant.list', 'GET', '/v1/analytics/:projectId/assistant', (c) => analytics.conversations(c.query)),
    route('assistant.thread', 'GET', '/v1/analytics/:projectId/assistant/threads/:threadId', (c) =>
      analytics.thread(c.params.threadId ?? ''),
    ),
    route('assistant.callers', 'GET', '/v1/analytics/:projectId/assistant/caller-stats', (c) =>
      analytics.callerStats(c.query),
    ),
    route('views.list', 'GET', '/v1/analytics/:projectId/views', (c) => analytics.traffic(c.query, 'views')),
    route('visitors.list', 'GET', '/v1/analytics/:projectId/visitors', (c) => analytics.traffic(c.query, 'visitors')),
  ];
}

export function createApiHandler(
  deps: ApiDeps,
): (req: IncomingMessage, res: ServerResponse, log: BodySink) => Promise<void> {
  const table = routes(deps);
  return async (req, res, log) => {
    try {
      const url = new URL(req.url ?? '/', 'http://api.invalid');
      if (url.pathname === '/_sandbox/faults') return sendReply(res, await faultsEndpoint(req, deps.faults, log));
      const candidates = table.map((r) => ({ r, m: r.pattern.exec(url.pathname) })).filter((x) => x.m !== null);
      const match = candidates.find((x) => x.r.method === req.method);
      if (!match?.m) {
        if (!authorized(req, deps.apiKey)) throw unauthorized();
        if (candidates.length > 0) {
          throw new HttpError(405, `Method ${req.method} is not allowed on ${url.pathname}`, {
            headers: { allow: candidates.map((x) => x.r.method).join(', ') },
          });
        }
        throw new HttpError(404, `No route for ${req.method} ${url.pathname}`);
      }
      // Injected faults act before auth, as a gateway or proxy in front of the API would.
      if (await applyFault(deps.faults.take(match.r.name), res, 'json', deps.signal)) return;
      if (!authorized(req, deps.apiKey)) throw unauthorized();
      const params = decodeParams(match.m.groups ?? {});
      if (params.projectId !== undefined && params.projectId !== deps.projectId) {
        throw new HttpError(404, `Project ${params.projectId} not found`);
      }
      const body = await readJsonBody(req, log);
      sendReply(res, await match.r.handle({ params, query: url.searchParams, body }));
    } catch (error) {
      if (res.headersSent || res.destroyed) return void res.destroy();
      if (error instanceof HttpError) return sendReply(res, error.toReply());
      sendReply(res, { status: 500, body: { error: `Sandbox error: ${(error as Error).message}` } });
    }
  };
}

/** Unauthenticated on purpose: shell scripts and the demo drive faults with a bare curl. */
async function faultsEndpoint(req: IncomingMessage, faults: Faults, log: BodySink): Promise<Reply> {
  if (req.method === 'GET') return { status: 200, body: state(faults) };
  if (req.method !== 'POST')
    throw new HttpError(405, 'Use GET or POST on /_sandbox/faults', { headers: { allow: 'GET, POST' } });
  const body = await readJsonBody(req, log);
  try {
    faults.applyJson(body);
  } catch (error) {
    throw new HttpError(400, `Bad faults document: ${(error as Error).message}`);
  }
  return { status: 200, body: state(faults) };
}

function state(faults: Faults): unknown {
  const {
    agentPollsToFinish,
    exportPollsToFinish,
    exportForbidden,
    throttleBytesPerSecond,
    projectStartsPerHour,
    failNextExports,
  } = faults;
  const { buildPollsToFinish, buildsFail, previewForbidden, creditsExhausted, webhookCreditCheckFailures } = faults;
  return {
    agentPollsToFinish,
    exportPollsToFinish,
    exportForbidden,
    exportFlows: [...faults.exportFlows],
    projectStartsPerHour,
    failNextExports,
    throttleBytesPerSecond: throttleBytesPerSecond ?? null,
    buildPollsToFinish,
    buildsFail,
    previewForbidden,
    creditsExhausted,
    webhookCreditCheckFailures,
    pending: faults.pending(),
  };
}

function authorized(req: IncomingMessage, apiKey: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1] === apiKey;
}

function unauthorized(): HttpError {
  return new HttpError(401, 'Invalid or missing API key: send Authorization: Bearer <admin API key>', {
    headers: { 'www-authenticate': 'Bearer' },
  });
}

function decodeParams(groups: Record<string, string>): Record<string, string> {
  try {
    return Object.fromEntries(Object.entries(groups).map(([k, v]) => [k, decodeURIComponent(v)]));
  } catch {
    throw new HttpError(400, 'Malformed percent-encoding in the path');
  }
}
