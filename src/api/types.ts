// Shapes of the Admin API's resources, from ../shared/api/*.json. Only what the CLI reads or the
// sandbox serves; fields the contract marks nullable are `| null`.

/** AgentJob (admin-openapi.json, components.schemas.AgentJob). */
export type AgentJobStatus = 'active' | 'completed' | 'archived' | 'failed';

export interface AgentJob {
  id: string;
  status: AgentJobStatus;
  source: { repository: string; ref: string | null };
  model: string;
  prLink: string | null;
  createdAt: string;
  archivedAt: string | null;
}

/** StaticExportJob (static-export-openapi.json). */
export type ExportJobStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface ExportJob {
  jobId: string;
  status: ExportJobStatus;
  /** Completion percentage, 0..100. */
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  /** Present only when status is `failed`. */
  error?: string | null;
}

export interface StartExportRequest {
  domain: string;
  version?: string;
  paths?: string[];
}

/** BundleResponse: a presigned storage link to the tar.gz of a completed export. */
export interface Bundle {
  jobId: string;
  bundleUrl: string;
  sizeBytes: number;
  expiresAt: string;
}

/** One element of SearchesResponse.searches (analytics.openapi.json). */
export interface SearchTerm {
  searchQuery: string;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
  lastSearchedAt: string;
}

export interface SearchesPage {
  searches: SearchTerm[];
  totalSearches: number;
  nextCursor: string | null;
}

export interface SearchesQuery {
  dateFrom?: string;
  dateTo?: string;
  limit?: number;
  cursor?: string;
}

/** Error bodies: `{ error }` everywhere; analytics adds `details`. */
export interface ApiErrorBody {
  error?: string;
  details?: Array<{ message: string }>;
}
