// Shapes of the Admin API's resources. Answers are inferred from the schemas in schemas.ts (which
// follow openapi/*.json), so a type cannot say more than what the boundary checked. Requests
// are written by hand: the CLI builds them.
import type { Answer, AgentJob as AgentJobSchema, BundleResponse, SearchesResponse, SearchTerm as SearchTermSchema, StaticExportJob, UnknownStatus } from './schemas.js';

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
