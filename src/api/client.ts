// The endpoint catalogue: one typed method per endpoint of the Admin API, each naming its route as
// the documents write it (also how errors name the call), its path parameters, the schema its answer
// must fit, and what the documents say about resending it. How a call is sent, retried and checked is
// the transport's (transport.ts).
import * as schemas from './schemas.js';
import { ApiTransport, type CallOptions, type ClientConfig } from './transport.js';
import type {
  AgentJob,
  AutomationTriggered,
  AutomationWebhookQueued,
  AutopilotTriggered,
  Bundle,
  CallerStats,
  CallerStatsQuery,
  ConversationsPage,
  ConversationsQuery,
  ExportJob,
  FeedbackByPagePage,
  FeedbackByPageQuery,
  FeedbackPage,
  PreviewTriggered,
  ProjectExportJob,
  FeedbackQuery,
  SearchesPage,
  SearchesQuery,
  StartExportRequest,
  StartProjectExportRequest,
  Thread,
  UpdateStatus,
  UpdateTriggered,
  TrafficQuery,
  ViewsPage,
  VisitorsPage,
} from './types.js';

export { DEFAULT_RETRY, type CallOptions, type ClientConfig, type RetryNotice, type RetryPolicy } from './transport.js';

/** update, trigger and webhook share 10 requests per 10 s per organization; preview 5 per minute. */
const DEPLOY_WINDOW_MS = 10_000;
const PREVIEW_WINDOW_MS = 60_000;

export class ApiClient {
  private readonly transport: ApiTransport;

  constructor(config: ClientConfig) {
    this.transport = new ApiTransport(config);
  }

  createAgentJob(projectId: string, prompt: string, call?: CallOptions): Promise<AgentJob> {
    return this.transport.send('POST', '/v2/agent/{projectId}/job', { projectId }, schemas.AgentJob, {
      body: { prompt },
      call,
    });
  }

  getAgentJob(projectId: string, jobId: string, call?: CallOptions): Promise<AgentJob> {
    return this.transport.send('GET', '/v2/agent/{projectId}/job/{jobId}', { projectId, jobId }, schemas.AgentJob, {
      call,
    });
  }

  sendAgentMessage(projectId: string, jobId: string, prompt: string, call?: CallOptions): Promise<AgentJob> {
    return this.transport.send(
      'POST',
      '/v2/agent/{projectId}/job/{jobId}/message',
      { projectId, jobId },
      schemas.AgentJob,
      { body: { prompt }, call },
    );
  }

  startExport(req: StartExportRequest, call?: CallOptions): Promise<ExportJob> {
    return this.transport.send('POST', '/v1/static-export/jobs', {}, schemas.StaticExportJob, { body: req, call });
  }

  getExport(jobId: string, call?: CallOptions): Promise<ExportJob> {
    return this.transport.send('GET', '/v1/static-export/jobs/{jobId}', { jobId }, schemas.StaticExportJob, { call });
  }

  createBundle(jobId: string, call?: CallOptions): Promise<Bundle> {
    return this.transport.send('POST', '/v1/static-export/jobs/{jobId}/bundle', { jobId }, schemas.BundleResponse, {
      call,
    });
  }

  startProjectExport(projectId: string, req: StartProjectExportRequest, call?: CallOptions): Promise<ProjectExportJob> {
    return this.transport.send('POST', '/v1/static-export/{projectId}/jobs', { projectId }, schemas.ProjectExportJob, {
      body: req,
      call,
    });
  }

  getProjectExport(projectId: string, jobId: string, call?: CallOptions): Promise<ProjectExportJob> {
    return this.transport.send(
      'GET',
      '/v1/static-export/{projectId}/jobs/{jobId}',
      { projectId, jobId },
      schemas.ProjectExportJob,
      { call },
    );
  }

  listSearches(projectId: string, query: SearchesQuery, call?: CallOptions): Promise<SearchesPage> {
    return this.transport.send('GET', '/v1/analytics/{projectId}/searches', { projectId }, schemas.SearchesResponse, {
      query: { ...query },
      call,
    });
  }

  // Deployments, previews and automations (openapi.json, whose paths sit under /v1; the webhook is in
  // admin-openapi.json). The documented windows are seconds, so a 429 without Retry-After waits out
  // the whole window rather than giving up after a short backoff.

  triggerUpdate(projectId: string, call?: CallOptions): Promise<UpdateTriggered> {
    return this.transport.send('POST', '/v1/project/update/{projectId}', { projectId }, schemas.UpdateTriggered, {
      rateWindowMs: DEPLOY_WINDOW_MS,
      call,
    });
  }

  getUpdateStatus(statusId: string, call?: CallOptions): Promise<UpdateStatus> {
    return this.transport.send('GET', '/v1/project/update-status/{statusId}', { statusId }, schemas.UpdateStatus, {
      call,
    });
  }

  triggerPreview(projectId: string, branch: string, call?: CallOptions): Promise<PreviewTriggered> {
    return this.transport.send('POST', '/v1/project/preview/{projectId}', { projectId }, schemas.PreviewTriggered, {
      body: { branch },
      rateWindowMs: PREVIEW_WINDOW_MS,
      call,
    });
  }

  triggerAutomation(projectId: string, workflowSchemaId: string, call?: CallOptions): Promise<AutomationTriggered> {
    return this.transport.send(
      'POST',
      '/v1/workflow/{projectId}/{workflowSchemaId}/trigger',
      { projectId, workflowSchemaId },
      schemas.AutomationTriggered,
      {
        rateWindowMs: DEPLOY_WINDOW_MS,
        call,
      },
    );
  }

  triggerAutomationWebhook(
    projectId: string,
    workflowSchemaId: string,
    call?: CallOptions,
  ): Promise<AutomationWebhookQueued> {
    return this.transport.send(
      'POST',
      '/v2/workflow/{projectId}/{workflowSchemaId}/webhook',
      { projectId, workflowSchemaId },
      schemas.AutomationWebhookQueued,
      {
        call,
        rateWindowMs: DEPLOY_WINDOW_MS,
        // The document: 503 "Credit check failed. Retry the request." No run was queued, so sending the
        // POST again cannot start a second one.
        resendOn: [503],
      },
    );
  }

  triggerAutopilot(projectId: string, prompt: string, call?: CallOptions): Promise<AutopilotTriggered> {
    return this.transport.send('POST', '/v2/autopilot/{projectId}/webhook', { projectId }, schemas.AutopilotTriggered, {
      body: { prompt },
      call,
      // The webhook family's 503 (the automation webhook's "Credit check failed. Retry the request."):
      // it answers before anything starts, so sending the POST again cannot start a second run.
      resendOn: [503],
    });
  }

  listFeedback(projectId: string, query: FeedbackQuery, call?: CallOptions): Promise<FeedbackPage> {
    return this.transport.send('GET', '/v1/analytics/{projectId}/feedback', { projectId }, schemas.FeedbackResponse, {
      query: { ...query },
      call,
    });
  }

  feedbackByPage(projectId: string, query: FeedbackByPageQuery, call?: CallOptions): Promise<FeedbackByPagePage> {
    return this.transport.send(
      'GET',
      '/v1/analytics/{projectId}/feedback/by-page',
      { projectId },
      schemas.FeedbackByPageResponse,
      { query: { ...query }, call },
    );
  }

  listConversations(projectId: string, query: ConversationsQuery, call?: CallOptions): Promise<ConversationsPage> {
    return this.transport.send(
      'GET',
      '/v1/analytics/{projectId}/assistant',
      { projectId },
      schemas.ConversationsResponse,
      { query: { ...query }, call },
    );
  }

  getThread(projectId: string, threadId: string, call?: CallOptions): Promise<Thread> {
    return this.transport.send(
      'GET',
      '/v1/analytics/{projectId}/assistant/threads/{threadId}',
      { projectId, threadId },
      schemas.ThreadResponse,
      { call },
    );
  }

  callerStats(projectId: string, query: CallerStatsQuery, call?: CallOptions): Promise<CallerStats> {
    return this.transport.send(
      'GET',
      '/v1/analytics/{projectId}/assistant/caller-stats',
      { projectId },
      schemas.CallerStatsResponse,
      { query: { ...query }, call },
    );
  }

  listViews(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<ViewsPage> {
    return this.transport.send('GET', '/v1/analytics/{projectId}/views', { projectId }, schemas.ViewsResponse, {
      query: { ...query },
      call,
    });
  }

  listVisitors(projectId: string, query: TrafficQuery, call?: CallOptions): Promise<VisitorsPage> {
    return this.transport.send('GET', '/v1/analytics/{projectId}/visitors', { projectId }, schemas.VisitorsResponse, {
      query: { ...query },
      call,
    });
  }
}
