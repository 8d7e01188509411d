// Shapes of the Admin API's resources. Answers are inferred from the schemas in schemas.ts (which
// follow openapi/*.json), so a type cannot say more than what the boundary checked. Requests
// are written by hand: the CLI builds them.
import type * as schemas from './schemas.js';
import type { Answer, AgentJob as AgentJobSchema, BundleResponse, SearchesResponse, SearchTerm as SearchTermSchema, StaticExportJob, UnknownStatus } from './schemas.js';
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

export interface StartExportRequest {
  domain: string;
  version?: string;
  paths?: string[];
}

export interface SearchesQuery {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  cursor?: string;
}
