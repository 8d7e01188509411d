// A failure as the agent sees it: a tool result with isError, saying what went wrong and what to do
// next, never a protocol error (the call itself was fine) and never the key or a presigned link. The
// engine's errors carry the facts; the next steps here are in terms of tools, not CLI flags.
import {
  ApiError,
  ConfigError,
  InterruptedError,
  JobFailedError,
  NetworkError,
  RateLimitError,
  UsageError,
  WaitTimeoutError,
} from '../errors.js';
import { redactUrl, scrubSecrets } from '../redact.js';

export interface ToolFailure {
  message: string;
  next: string;
}

/** A start or a message the API may have acted on although no answer came: never "just try again". */
const MAY_HAVE_ACTED =
  'the request may have reached the API before it failed: check whether it acted (agent jobs and builds in the Mintlify dashboard, export_status, build_status) before calling again, or it may act twice';

/** What went wrong and the next step, for an error a tool threw; `writes` for a tool that starts something. */
export function describeFailure(error: unknown, toolName: string, writes = false): ToolFailure {
  const message = error instanceof Error ? error.message : String(error);
  // An unreadable 2xx (ExportMayHaveStartedError, an agent job's) means the API accepted the start.
  const uncertain =
    error instanceof NetworkError ||
    (error instanceof ApiError && !(error instanceof RateLimitError) && (error.status >= 500 || error.status < 300));
  if (writes && uncertain) return { message, next: MAY_HAVE_ACTED };
  if (error instanceof UsageError)
    return { message, next: `fix the arguments and call ${toolName} again; nothing was sent` };
  if (error instanceof ConfigError) {
    return {
      message,
      next: "the server's own settings need fixing (the MCP client's env for this server, or `mint-admin config set`); a tool cannot supply them. Tell the user",
    };
  }
  if (error instanceof RateLimitError) {
    const after = error.retryAt === undefined ? 'later' : `after ${new Date(error.retryAt).toISOString()}`;
    return {
      message,
      next: `the API's rate limit was reached; try again ${after} (the analytics endpoints share 100 requests an hour per organization)`,
    };
  }
  if (error instanceof ApiError) {
    if (error.status === 401 || error.status === 403)
      return { message, next: 'the admin key was refused: tell the user to check the key this server runs with' };
    if (error.status === 404)
      return { message, next: 'check the id (and that it belongs to this project), then call again' };
    if (error.status >= 500)
      return { message, next: `the API failed after retries; try ${toolName} again in a few minutes` };
    return { message, next: "check the arguments against the tool's description, then call again" };
  }
  if (error instanceof WaitTimeoutError)
    return {
      message,
      next: 'the job goes on on the server: call the matching status tool (agent_get, export_status, build_status) with its id later',
    };
  if (error instanceof JobFailedError)
    return { message, next: 'the job ended in failure on the server; read the reason above before starting another' };
  if (error instanceof NetworkError)
    return { message, next: `the API could not be reached; try ${toolName} again shortly` };
  if (error instanceof InterruptedError || isAbort(error))
    return { message: 'cancelled', next: 'the call was cancelled; a job it started goes on on the server' };
  return { message, next: `an unexpected failure; try ${toolName} again, and tell the user if it repeats` };
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

/** Every URL's signature parameters redacted, and every known secret masked: the last guard on any text a client sees. */
export function safeText(text: string, secrets: Array<string | undefined>): string {
  const noLinks = text.replace(/https?:\/\/[^\s"'<>\\]+/g, (url) => redactUrl(url));
  return scrubSecrets(noLinks, secrets);
}
