// Start an Autopilot run with a prompt, through the engine's client (as `autopilot run` does). The API
// has no endpoint to follow a run, so this returns its run id. The webhook family's refusals (402,
// 404, 503: nothing started) and an answer that never came (it may have started) get their own words.
import { autopilotRunId } from '../../autopilot/run-id.js';
import { ApiError, NetworkError, RateLimitError } from '../../errors.js';
import type { ToolFailure } from '../errors.js';
import { z } from '../sdk.js';
import { defineTool } from '../tool.js';
import { readerText } from '../untrusted.js';

const WHERE_TO_LOOK = 'Autopilot in the Mintlify dashboard';

export const autopilotRun = defineTool({
  name: 'autopilot_run',
  group: 'autopilot',
  title: 'Start an Autopilot run',
  description: `Start one Mintlify Autopilot run with a prompt (e.g. "Update the changelog for v2.4"). Spends AI credits; the request is sent once. Returns the run id when the API gives a plain one; the API cannot follow a run (it shows under ${WHERE_TO_LOOK}).`,
  input: {
    prompt: z.string().min(1).max(20_000).describe('what Autopilot should do'),
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  async run(args, env) {
    const projectId = await env.projectId();
    const api = await env.api();
    const answer = await api.triggerAutopilot(projectId, args.prompt, { signal: env.signal });
    const runId = autopilotRunId(answer) ?? null;
    return {
      runId,
      next:
        runId === null
          ? `the run started, but the answer carried no plain run id; see the run under ${WHERE_TO_LOOK}`
          : `the run started; the API cannot follow it: see run ${runId} under ${WHERE_TO_LOOK}`,
    };
  },
  explain(error): ToolFailure | undefined {
    if (error instanceof ApiError && !(error instanceof RateLimitError)) {
      const said = error.serverMessage
        ? ` (${error.status}: ${readerText(error.serverMessage, 200)})`
        : ` (${error.status})`;
      if (error.status === 402) {
        return {
          message: `AI credits are exhausted for this billing cycle${said}; no run was started`,
          next: 'tell the user: a plan upgrade or the next billing cycle renews the credits; calling again will not help until then',
        };
      }
      if (error.status === 404) {
        return {
          message: `Autopilot cannot be run for this project${said}: the project does not exist, is not the key's, or has no Autopilot set up`,
          next: `tell the user to check the project id this server runs with (MINTLIFY_PROJECT_ID or \`mint-admin config set project-id\`) and ${WHERE_TO_LOOK}`,
        };
      }
      // The webhook's 503 is its credit check failing before anything starts; the client has already sent it again.
      if (error.status === 503) {
        return {
          message: `the credit check failed${said} on every try; no run was started`,
          next: 'call autopilot_run again in a few minutes',
        };
      }
    }
    const uncertain =
      error instanceof NetworkError ||
      (error instanceof ApiError && !(error instanceof RateLimitError) && error.status >= 500);
    if (uncertain) {
      return {
        message: (error as Error).message,
        next: `the run may have started anyway: check ${WHERE_TO_LOOK} (or ask the user to) before calling autopilot_run again, or it may run twice`,
      };
    }
    return undefined;
  },
});
