// `analytics report`'s engine: compute the report object from the database, then render it.
export { computeReport } from './compute.js';
export { renderMarkdown } from './markdown.js';
export { renderSlack, SLACK_LIMITS, type SlackMessage } from './slack.js';
export { PERIODS, reportPeriods, type PeriodKind } from './period.js';
export type { Report } from './types.js';
export { REPORT_FORMATS, type ReportFormat } from './formats.js';
