import type { Command } from 'commander';
import type { PreviewTriggered } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { answerOf, ApiError } from '../../../errors.js';
import { checkServerId } from '../../../ids.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../../wait-flags.js';
import { addGithubOutputOption, githubTarget } from '../github-output.js';
import { checkBranchName } from '../../../branch-name.js';

export type PreviewStartFlags = WaitFlags & { githubOutput?: boolean };

/**
 * Queues a preview deployment of a branch. Without --wait: the statusId on stdout, the preview URL
 * on stderr with a note that it is not live yet. With --wait: the preview URL on stdout only once
 * the build succeeded, so a pipeline that posts it never posts a link that 404s.
 */
export async function previewStart(
  branchArg: string | undefined,
  flags: PreviewStartFlags,
  ctx: Context,
): Promise<void> {
  const branch = checkBranchName(branchArg);
  const wait = parseWaitFlags(flags);
  const github = await githubTarget(ctx, flags.githubOutput);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  let queued: PreviewTriggered;
  try {
    queued = await api.triggerPreview(projectId, branch);
  } catch (error) {
    const { explainUncertainPost } = await import('../uncertain-post.js');
    throw explainUncertainPost(
      explainPreviewFailure(error),
      `the preview of ${branch} may have been queued anyway: look for it in the Mintlify dashboard before starting it again`,
    );
  }
  const statusId = checkServerId(
    'status id',
    queued.statusId,
    `the preview of ${branch} was queued: follow it in the Mintlify dashboard`,
  );
  const previewUrl = queued.previewUrl;
  const { watchBuild, buildStatusCommand } = await import('../build-watch.js');
  if (!wait.wait) {
    if (ctx.mode.json) printJson(ctx, queued);
    else ctx.print(statusId);
    if (github) {
      const { writeGithubReport } = await import('../github-output.js');
      await writeGithubReport(
        github,
        { kind: 'preview', statusId, build: undefined, status: 'queued', previewUrl },
        ctx,
      );
    }
    if (previewUrl) ctx.reporter.info(`preview of ${branch} (live once its build succeeds): ${previewUrl}`);
    ctx.reporter.info(`follow it: ${await buildStatusCommand('preview', statusId, ctx, ['--wait'])}`);
    return;
  }
  ctx.reporter.info(`preview of ${branch} queued: ${statusId}`);
  await watchBuild({ kind: 'preview', statusId, wait, github, previewUrl }, ctx);
  if (ctx.mode.json) return;
  if (previewUrl) ctx.print(previewUrl);
  else
    ctx.reporter.warn(
      `the preview of ${branch} is live, but the API sent no previewUrl; find the link in the Mintlify dashboard`,
    );
}

/** 403 here has one documented meaning: the plan has no preview deployments. */
function explainPreviewFailure(error: unknown): unknown {
  if (error instanceof ApiError && error.status === 403) {
    return new ApiError(
      `preview deployments are not available on your current plan (403${error.serverMessage ? `: ${error.serverMessage}` : ''}); upgrade the plan in the Mintlify dashboard, or check that the key belongs to this project's organization`,
      error.status,
      answerOf(error),
      { cause: error, nextStepSaid: true },
    );
  }
  return error;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('start')
    .description(
      'build a preview deployment of a branch (POST /v1/project/preview); with --wait, print its URL once it is live',
    )
    .argument('<branch>', 'the git branch to preview (a valid git branch name)');
  addWaitOptions(command, 'the build succeeds (then print the preview URL) or fails (exit 4)');
  addGithubOutputOption(command);
  command.action(
    action<PreviewStartFlags>(deps, async ([branch], flags, ctx) => {
      await previewStart(branch, flags, ctx);
    }),
  );
  examples(command, [
    'mint-admin preview start feat/new-guide --wait',
    'url=$(mint-admin preview start "$GITHUB_HEAD_REF" --wait --timeout 15m) && gh pr comment --body "Preview: $url"',
    'mint-admin preview start "$GITHUB_HEAD_REF" --wait --github-output',
  ]);
}
