// Shapes of the Admin API's resources. Answers are inferred from the schemas in schemas.ts (which
// follow openapi/*.json), so a type cannot say more than what the boundary checked. Requests
// are written by hand: the CLI builds them.
import type { FEEDBACK_SOURCES, FEEDBACK_STATUSES } from './enums.js';
import type * as schemas from './schemas.js';
import type {
  Answer,
  AgentJob as AgentJobSchema,
  BundleResponse,
  SearchesResponse,
  SearchTerm as SearchTermSchema,
  ProjectExportJob as ProjectExportJobSchema,
  StaticExportJob,
  UnknownStatus,
} from './schemas.js';
import type {
  AutomationTriggered as AutomationTriggeredSchema,
  AutomationWebhookQueued as AutomationWebhookQueuedSchema,
  PreviewTriggered as PreviewTriggeredSchema,
  UpdateStatus as UpdateStatusSchema,
  UpdateTriggered as UpdateTriggeredSchema,
} from './schemas.js';

export type { UnknownStatus };

/** AgentJob (admin-openapi.json, components.schemas.AgentJob). */
export type AgentJob = Answer<typeof AgentJobSchema>;
/** The documented states; a job may also carry an UnknownStatus (see schemas.ts). */
export type AgentJobStatus = Exclude<AgentJob['status'], UnknownStatus>;

/** StaticExportJob (static-export-openapi.json). */
export type ExportJob = Answer<typeof StaticExportJob>;
export type ExportJobStatus = Exclude<ExportJob['status'], UnknownStatus>;

/** StaticExportJob of the project-scoped flow (static-export-project-openapi.json). */
export type ProjectExportJob = Answer<typeof ProjectExportJobSchema>;

/** A job of either flow, as the API returned it (`--json` prints it untouched). */
export type AnyExportJob = ExportJob | ProjectExportJob;

/** BundleResponse: a presigned storage link to the tar.gz of a completed export. */
export type Bundle = Answer<typeof BundleResponse>;

/** One element of SearchesResponse.searches (analytics.openapi.json). */
export type SearchTerm = Answer<typeof SearchTermSchema>;
export type SearchesPage = Answer<typeof SearchesResponse>;

/** A deployment or preview build as GET /v1/project/update-status/{statusId} shows it (openapi.json). */
export type UpdateStatus = Answer<typeof UpdateStatusSchema>;
export type UpdateStatusName = Exclude<UpdateStatus['status'], UnknownStatus>;
export type UpdateTriggered = Answer<typeof UpdateTriggeredSchema>;
export type PreviewTriggered = Answer<typeof PreviewTriggeredSchema>;
export type AutomationTriggered = Answer<typeof AutomationTriggeredSchema>;
export type AutomationWebhookQueued = Answer<typeof AutomationWebhookQueuedSchema>;
/** POST /v2/autopilot/{projectId}/webhook's answer: undocumented, so any JSON object (see autopilotRunId). */
export type AutopilotTriggered = Answer<typeof schemas.AutopilotTriggered>;

/** The other analytics endpoints (analytics.openapi.json). */
export type FeedbackPage = Answer<typeof schemas.FeedbackResponse>;
/** One feedback entry: the union of the contextual, code-snippet and base variants. */
export type FeedbackItem = FeedbackPage['feedback'][number];
export type FeedbackByPagePage = Answer<typeof schemas.FeedbackByPageResponse>;
export type PageFeedback = Answer<typeof schemas.PageFeedback>;
export type ConversationsPage = Answer<typeof schemas.ConversationsResponse>;
export type Conversation = Answer<typeof schemas.Conversation>;
export type Thread = Answer<typeof schemas.ThreadResponse>;
export type CallerStats = Answer<typeof schemas.CallerStatsResponse>;
export type ViewsPage = Answer<typeof schemas.ViewsResponse>;
export type VisitorsPage = Answer<typeof schemas.VisitorsResponse>;
/** One row of views or visitors: a page path with human, AI and total counts. */
export type PageTraffic = ViewsPage['views'][number];

/** The query every analytics list shares; each endpoint takes the parts it documents. */
export interface AnalyticsQuery {
  dateFrom?: string | undefined;
  dateTo?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  offset?: number | undefined;
  source?: string | undefined;
  status?: string | undefined;
}

/** The date range of every analytics query: YYYY-MM-DD or ISO 8601 (UTC unless it has an offset). */
export interface AnalyticsDateRange {
  dateFrom?: string | undefined;
  /** Exclusive: that instant itself is not counted. */
  dateTo?: string | undefined;
}

/** GET /v1/analytics/{projectId}/feedback: cursor pages of up to 100. */
export interface FeedbackQuery extends AnalyticsDateRange {
  limit?: number | undefined;
  cursor?: string | undefined;
  source?: FeedbackSource | undefined;
  /** Comma-separated review states: `pending,in_progress`. */
  status?: string | undefined;
}
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** GET .../feedback/by-page: one page of up to 100 rows (the API has no cursor for it). */
export type FeedbackByPageQuery = Omit<FeedbackQuery, 'cursor'>;

/** GET .../assistant: cursor pages of up to 1000. */
export interface ConversationsQuery extends AnalyticsDateRange {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** GET .../views and .../visitors: offset pages of up to 250. */
export interface TrafficQuery extends AnalyticsDateRange {
  limit?: number | undefined;
  offset?: number | undefined;
}

/** GET .../assistant/caller-stats. */
export type CallerStatsQuery = AnalyticsDateRange;

export interface StartExportRequest {
  domain: string;
  version?: string;
  paths?: string[];
}

/** The project flow's start body: every field optional. */
export interface StartProjectExportRequest {
  basePath?: BasePath;
}

export const BASE_PATHS = ['', '/docs', '/documentation'] as const;
export type BasePath = (typeof BASE_PATHS)[number];

export interface SearchesQuery {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  cursor?: string;
}
