import type { Command } from 'commander';
import type { AutomationTriggered, AutomationWebhookQueued } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { answerOf, ApiError } from '../../../errors.js';
import { checkId, checkServerId } from '../../../ids.js';

export const AUTOMATIONS_PAGE = 'https://app.mintlify.com/products/automations';

export interface AutomationRunFlags {
  webhook?: boolean;
}

/**
 * Queues one run of an automation: a scheduled one through its trigger, a webhook one through its
 * webhook. The API has no endpoint to follow a run, so this prints the run's id and stops; the run
 * shows on the Automations page. The POST is never sent twice, except after the webhook's documented
 * 503 (its credit check failed before any run was queued).
 */
export async function automationRun(
  id: string | undefined,
  flags: AutomationRunFlags,
  ctx: Context,
): Promise<AutomationTriggered | AutomationWebhookQueued> {
  const automationId = checkId(
    'automation id',
    id,
    `copy it from the automation's settings panel on ${AUTOMATIONS_PAGE}`,
  );
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const how = flags.webhook ? 'webhook' : 'trigger';
  let runId: string;
  let answer: AutomationTriggered | AutomationWebhookQueued;
  try {
    if (flags.webhook) {
      const queued = await api.triggerAutomationWebhook(projectId, automationId);
      [answer, runId] = [queued, queued.runId];
    } else {
      const queued = await api.triggerAutomation(projectId, automationId);
      [answer, runId] = [queued, queued.instanceId];
    }
  } catch (error) {
    // The webhook's 503 (after its retries) queued nothing: explained as such, not as "may exist".
    if (flags.webhook && error instanceof ApiError && error.status === 503)
      throw explainRunFailure(error, automationId, how);
    const { explainUncertainPost } = await import('../uncertain-post.js');
    throw explainUncertainPost(
      explainRunFailure(error, automationId, how),
      `the run may have been queued anyway: look for it on ${AUTOMATIONS_PAGE} before running it again`,
    );
  }
  const after = `the run was queued: see it on ${AUTOMATIONS_PAGE}`;
  checkServerId('automation run id', runId, after);
  if (ctx.mode.json) printJson(ctx, answer);
  else ctx.print(runId);
  ctx.reporter.info(
    `automation ${automationId}: run ${runId} queued; the API cannot follow a run, see it on ${AUTOMATIONS_PAGE}`,
  );
  return answer;
}

/** The documented failures of the two endpoints, in words that say which causes apply and what to do. */
function explainRunFailure(error: unknown, automationId: string, how: 'trigger' | 'webhook'): unknown {
  if (!(error instanceof ApiError)) return error;
  const said = error.serverMessage ? ` (${error.status}: ${error.serverMessage})` : ` (${error.status})`;
  // The CLI's sentence for the same answer: it says what to do, so the table adds no advice.
  const rewrite = (message: string) =>
    new ApiError(message, error.status, answerOf(error), { cause: error, nextStepSaid: true });
  switch (error.status) {
    case 402:
      return rewrite(
        `AI credits are exhausted for this billing cycle${said}; nothing was queued. Upgrade your plan or wait for your credits to renew, then run it again`,
      );
    case 404:
      return rewrite(
        how === 'webhook'
          ? `automation ${automationId} cannot be run by webhook${said}: it was not found, is not active, does not belong to this project, or has no webhook trigger (predefined automations and scheduled ones answer 404 here; run a scheduled one without --webhook). Check the id and --project on ${AUTOMATIONS_PAGE}`
          : `automation ${automationId} was not found${said}: it does not exist or does not belong to this project. Check the id and --project on ${AUTOMATIONS_PAGE}`,
      );
    case 400:
      return rewrite(
        how === 'webhook'
          ? `the API refused automation id ${automationId}${said}: it is malformed; copy it from the automation's settings panel on ${AUTOMATIONS_PAGE}`
          : `automation ${automationId} cannot be triggered${said}: the id is malformed, the automation is not active, or it has no custom schedule (a webhook automation runs with --webhook)`,
      );
    case 503:
      return how === 'webhook'
        ? rewrite(`the credit check failed${said} on every try; no run was queued. Try again in a few minutes`)
        : error;
    default:
      return error;
  }
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('run')
    .description(
      "run an automation now and print the run's id (the API cannot follow a run: it shows on the Automations page)",
    )
    .argument('<automationId>', "the id from the automation's settings panel on the Automations page")
    .option(
      '--webhook',
      'run a webhook-triggered automation (POST /v2/workflow/.../webhook) instead of a scheduled one',
    );
  command.action(
    action<AutomationRunFlags>(deps, async ([id], flags, ctx) => {
      await automationRun(id, flags, ctx);
    }),
  );
  examples(command, ['mint-admin automation run wf_3kq9x2', 'mint-admin automation run wf_7hd2m1 --webhook --json']);
}
