// The Autopilot webhook's answer is undocumented (src/api/schemas.ts, AutopilotTriggered): whatever it
// holds is kept, and its run id is read here, once, for every face (CLI, library, MCP).
import type { AutopilotTriggered } from '../api/types.js';
import { isPlainToken } from '../ids.js';

/**
 * The answer's `runId` when it is a plain token (letters, digits, ".", "_", "-"), else undefined: a
 * server string is printed as an id, put in a URL or a GitHub output only when it cannot carry an
 * escape sequence or a line break.
 */
export function autopilotRunId(answer: AutopilotTriggered): string | undefined {
  const { runId } = answer;
  return typeof runId === 'string' && isPlainToken(runId) ? runId : undefined;
}
