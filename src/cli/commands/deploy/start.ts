import type { Command } from 'commander';
import type { UpdateStatus, UpdateTriggered } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { checkServerId } from '../../../ids.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../../wait-flags.js';
import { addGithubOutputOption, githubTarget } from '../github-output.js';

export type DeployStartFlags = WaitFlags & { githubOutput?: boolean };

/**
 * Queues a deployment of the project's deployment branch and, with --wait, follows its build to the
 * end. The statusId is on stdout at once, so a pipeline has it even when the wait ends badly. The one
 * POST is never sent twice once it may have reached the server.
 */
export async function deployStart(flags: DeployStartFlags, ctx: Context): Promise<UpdateTriggered | UpdateStatus> {
  const wait = parseWaitFlags(flags);
  const github = await githubTarget(ctx, flags.githubOutput);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  let queued: UpdateTriggered;
  try {
    queued = await api.triggerUpdate(projectId);
  } catch (error) {
    const { explainUncertainPost } = await import('../uncertain-post.js');
    throw explainUncertainPost(
      error,
      'the deployment may have been queued anyway: look for it in the Mintlify dashboard before deploying again',
    );
  }
  const statusId = checkServerId(
    'status id',
    queued.statusId,
    'the deployment was queued: follow it in the Mintlify dashboard',
  );
  if (!ctx.mode.json) ctx.print(statusId);
  // The follow-up pulls in the polling loop and the HTTP layer's helpers: loaded only when used.
  const { watchBuild, buildStatusCommand } = await import('../build-watch.js');
  if (wait.wait) return watchBuild({ kind: 'deploy', statusId, wait, github }, ctx);
  if (ctx.mode.json) printJson(ctx, queued);
  if (github) {
    const { writeGithubReport } = await import('../github-output.js');
    await writeGithubReport(github, { kind: 'deploy', statusId, build: undefined, status: 'queued' }, ctx);
  }
  ctx.reporter.info(`deployment queued; follow it: ${buildStatusCommand('deploy', statusId, ctx, ['--wait'])}`);
  return queued;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('start')
    .description('deploy the docs from your deployment branch: prints the statusId (POST /v1/project/update)');
  addWaitOptions(command, 'the build succeeds or fails, streaming its log to stderr (exit 4 on failure)');
  addGithubOutputOption(command);
  command.action(
    action<DeployStartFlags>(deps, async (_args, flags, ctx) => {
      await deployStart(flags, ctx);
    }),
  );
  examples(command, [
    'mint-admin deploy start --wait',
    'mint-admin deploy start --wait --timeout 15m --github-output',
    'id=$(mint-admin deploy start) && mint-admin deploy status "$id" --wait',
  ]);
}
