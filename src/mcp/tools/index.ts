// Every tool the server offers, in the order a client lists them. Adding a tool: a file exporting
// its ToolDefinition (tool.ts), and one line here.
import type { ToolDefinition } from '../tool.js';
import { agentGet, agentMessage, agentRun } from './agent.js';
import { analyticsGaps } from './analytics-gaps.js';
import { analyticsQuery } from './analytics-query.js';
import {
  analyticsConversations,
  analyticsFeedback,
  analyticsSearches,
  analyticsViews,
  analyticsVisitors,
} from './analytics-lists.js';
import { automationRun } from './automation.js';
import { autopilotRun } from './autopilot.js';
import { buildStatus, deployStart, previewStart } from './builds.js';
import { exportRun, exportStatus } from './export.js';

export const TOOLS: ReadonlyArray<ToolDefinition> = [
  agentGet,
  exportStatus,
  buildStatus,
  analyticsSearches,
  analyticsFeedback,
  analyticsConversations,
  analyticsViews,
  analyticsVisitors,
  analyticsGaps,
  analyticsQuery,
  agentRun,
  agentMessage,
  exportRun,
  deployStart,
  previewStart,
  automationRun,
  autopilotRun,
] as ReadonlyArray<ToolDefinition>;
