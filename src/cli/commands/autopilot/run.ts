import type { Command } from 'commander';
import type { AutopilotTriggered } from '../../../api/types.js';
import { autopilotRunId } from '../../../autopilot/run-id.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { answerOf, ApiError } from '../../../errors.js';
import { readPrompt } from '../prompt-input.js';

export interface AutopilotRunOptions {
  words: string[];
  file?: string | undefined;
}

const WHERE_TO_LOOK = 'check Autopilot in the Mintlify dashboard';

/**
 * Starts one Autopilot run with a prompt. Its answer is not documented: any JSON object is printed
 * whole with --json, and its runId (when it has a plain one) is the human output. The API has no
 * endpoint to follow a run. The POST is never sent twice, except after the webhook family's 503 (the
 * credit check failed before anything started).
 */
export async function autopilotRun(opts: AutopilotRunOptions, ctx: Context): Promise<AutopilotTriggered> {
  const prompt = await readPrompt(
    { words: opts.words, file: opts.file },
    'mint-admin autopilot run "Update the changelog for v2.4"',
    ctx,
  );
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  let answer: AutopilotTriggered;
  try {
    answer = await api.triggerAutopilot(projectId, prompt);
  } catch (error) {
    const explained = explainRunFailure(error, projectId);
    if (explained !== error) throw explained;
    const { explainUncertainPost } = await import('../uncertain-post.js');
    throw explainUncertainPost(error, `the run may have started anyway: ${WHERE_TO_LOOK} before running it again`);
  }
  const runId = autopilotRunId(answer);
  if (ctx.mode.json) printJson(ctx, answer);
  else if (runId !== undefined) ctx.print(runId);
  ctx.reporter.info(
    runId === undefined
      ? 'autopilot: run started; the answer carried no run id (--json prints it whole)'
      : `autopilot: run ${runId} started`,
  );
  return answer;
}

/**
 * The webhook family's failures (as the automation webhook documents them: 402, 404, 503 before
 * anything starts), in words that say what to do; anything else is returned as it is.
 */
function explainRunFailure(error: unknown, projectId: string): unknown {
  if (!(error instanceof ApiError)) return error;
  const said = error.serverMessage ? ` (${error.status}: ${error.serverMessage})` : ` (${error.status})`;
  // The CLI's sentence for the same answer: it says what to do, so the table adds no advice.
  const rewrite = (message: string) =>
    new ApiError(message, error.status, answerOf(error), { cause: error, nextStepSaid: true });
  switch (error.status) {
    case 402:
      return rewrite(
        `AI credits are exhausted for this billing cycle${said}; no run was started. Upgrade your plan or wait for your credits to renew, then run it again`,
      );
    case 404:
      return rewrite(
        `Autopilot cannot be run for project ${projectId}${said}: the project does not exist, is not yours, or has no Autopilot set up. Check --project and Autopilot in the Mintlify dashboard`,
      );
    case 503:
      return rewrite(`the credit check failed${said} on every try; no run was started. Try again in a few minutes`);
    default:
      return error;
  }
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('run')
    .description(
      'start an Autopilot run with a prompt and print its run id when the API gives one (the API cannot follow a run)',
    )
    .argument('[prompt...]', 'what Autopilot should do (words are joined by spaces)')
    .option('-f, --file <path>', 'read the prompt from a file ("-" = stdin)');
  command.action(
    action<{ file?: string }>(deps, async ([words], flags, ctx) => {
      await autopilotRun({ words: (words as unknown as string[] | undefined) ?? [], file: flags.file }, ctx);
    }),
  );
  examples(command, [
    'mint-admin autopilot run "Update the changelog for v2.4"',
    'mint-admin autopilot run -f .github/autopilot-prompt.md --json',
    'git log -1 --format=%B | mint-admin autopilot run -f -',
  ]);
}
