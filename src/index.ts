// The library: `import { AdminClient, downloadBundle } from 'mint-admin'`. Everything exported here
// is the documented contract (docs/library.md); what is not exported is internal and may change.
// The CLI is built on the same client and download engine, so a script gets the CLI's checks,
// retries, rate-limit rules and redaction.
export { AdminClient, type AdminClientOptions } from './library/client.js';
export type { WaitOptions } from './library/export-wait.js';
export {
  downloadBundle,
  type DownloadBundleOptions,
  type SiteInstallOptions,
  type DownloadEvent,
  type DownloadPhase,
  type DownloadProgressEvent,
  type DownloadResult,
} from './library/download.js';
export {
  startStaticExport,
  waitForStaticExport,
  type ExportFlowOptions,
  type ExportFlowSetting,
  type FlowReason,
  type StartInput as StaticExportInput,
  type StaticExportStarted,
  type StaticExportWaitOptions,
} from './library/export-flows.js';
export { exportStaticSite, type ExportStaticSiteOptions, type StaticSite } from './library/export-site.js';
export { memoryFlowStore, type ExportFlow, type FlowFacts, type FlowStore } from './export-flows/flow-store.js';
export { fileFlowStore, FLOW_CACHE_FILE } from './export-flows/flow-cache.js';
export {
  ExportAlreadyRunningError,
  ExportJobNotFoundError,
  ExportMayHaveStartedError,
  ExportNotEnabledError,
  FlowInputMismatchError,
  FlowNeedsDomainError,
  FlowNeedsProjectError,
  NotFinishedError,
  UnknownExportStatusError,
  type FlowField,
} from './export-flows/errors.js';
export {
  waitForAgentJob,
  waitForBuild,
  type AgentJobWaitEvent,
  type BuildWaitEvent,
  type WaitForAgentJobOptions,
  type WaitForBuildOptions,
} from './library/waits.js';
export {
  AgentJobFailedError,
  AgentJobTimeoutError,
  BuildFailedError,
  BuildTimeoutError,
  UnknownStatusError,
} from './waits/errors.js';
export { contentGaps, type ContentGapsQuery } from './library/gaps.js';
export { autopilotRunId } from './autopilot/run-id.js';
export type { GapSource, GapsCollection, GapsReport, SourceUse } from './gaps/collect.js';
export type { Gap, GapKind } from './gaps/score.js';
export { DEFAULT_RETRY, type CallOptions, type RetryNotice, type RetryPolicy } from './api/transport.js';
export type { RequestLedger } from './api/request-ledger.js';
export { DEFAULT_TIMEOUTS, type Timeouts } from './api/http.js';
export { DEFAULT_BASE_URL } from './config/settings.js';
export type { Clock } from './clock.js';
export type {
  AgentJob,
  AgentJobStatus,
  AutomationTriggered,
  AutomationWebhookQueued,
  AutopilotTriggered,
  BasePath,
  AnalyticsDateRange,
  AnyExportJob,
  Bundle,
  CallerStats,
  CallerStatsQuery,
  Conversation,
  ConversationsPage,
  ConversationsQuery,
  ExportJob,
  ExportJobStatus,
  ProjectExportJob,
  FeedbackByPagePage,
  FeedbackByPageQuery,
  FeedbackItem,
  FeedbackPage,
  FeedbackQuery,
  FeedbackSource,
  FeedbackStatus,
  PageFeedback,
  PageTraffic,
  SearchesPage,
  SearchesQuery,
  SearchTerm,
  PreviewTriggered,
  StartExportRequest,
  StartProjectExportRequest,
  UnknownStatus,
  UpdateStatus,
  UpdateStatusName,
  UpdateTriggered,
  Thread,
  TrafficQuery,
  ViewsPage,
  VisitorsPage,
} from './api/types.js';
export {
  ApiError,
  ArchiveRefusedError,
  BundleStorageError,
  ConfigError,
  InterruptedError,
  JobFailedError,
  MintAdminError,
  NetworkError,
  RateLimitError,
  TargetRefusedError,
  UsageError,
  WaitTimeoutError,
  type ApiErrorCode,
  type ProtectedDirectory,
  type TargetRefusal,
} from './errors.js';
export { VERSION } from './version.js';
