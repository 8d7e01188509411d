// What a tool is: its contract with the agent (name, description, input schema, annotations, the group
// that allows it) and a run that calls the engine. The server (server.ts) registers each one, hands it
// a ToolEnv, and turns what it returns or throws into a tool result. Adding a tool is a file that
// exports one ToolDefinition and its line in tools/index.ts.
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import type { ApiClient } from '../api/client.js';
import type { Clock } from '../clock.js';
import type { ExportApiSetting } from '../config/settings.js';
import type { ToolFailure } from './errors.js';
import type { WriteGroup } from './groups.js';

export type InputShape = Record<string, z.ZodType>;

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  /** Every tool talks to the Mintlify API: true for all of them. */
  openWorldHint: boolean;
}

/** What a tool is handed: the engine's client and settings, the call's signal, and a way to say how far it is. */
export interface ToolEnv {
  /** The CLI's API client, built from the CLI's settings (env, config); the key is never a tool input. */
  api(): Promise<ApiClient>;
  projectId(): Promise<string>;
  /** The API base URL without a trailing slash (the export flow memory's key). */
  baseUrl(): Promise<string>;
  exportApi(): Promise<ExportApiSetting>;
  /** Proxy-aware, for bundle storage (never sent the key). */
  dispatcher(): Promise<Dispatcher>;
  /** Aborted when the client cancels the call (notifications/cancelled) or the server stops. */
  signal: AbortSignal;
  /** A progress notification, when the client asked for them with a progressToken; otherwise nothing. */
  progress(progress: number, total: number | undefined, message: string): void;
  /** The analytics database analytics_query reads: `mcp --db`, else the CLI's default for the project. */
  analyticsDatabase(): Promise<string>;
  /** The directory export_run writes under (--root). */
  root: string;
  clock: Clock;
  random: () => number;
}

export interface ToolDefinition<Shape extends InputShape = InputShape> {
  name: string;
  /** The --allow group that lists this tool; none for a read-only tool. */
  group?: WriteGroup;
  title: string;
  /** What it does, what it returns, and how to ask for more: an agent decides from this alone. */
  description: string;
  input: Shape;
  annotations: ToolAnnotations;
  /** Data for the agent (a JSON value); throw for a failure: the server words it as a tool error. */
  run(args: z.infer<z.ZodObject<Shape>>, env: ToolEnv): Promise<unknown>;
  /** The tool's own words for a failure it knows better than describeFailure (errors.ts); undefined for the rest. */
  explain?(error: unknown): ToolFailure | undefined;
}

/** Identity, for type inference of `args` from `input`. */
export function defineTool<Shape extends InputShape>(tool: ToolDefinition<Shape>): ToolDefinition<Shape> {
  return tool;
}

export const READ_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};
