// The report's formats, apart from their renderers: the CLI declares its flag without loading them.
export const REPORT_FORMATS = ['md', 'json', 'slack'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
