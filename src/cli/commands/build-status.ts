// `deploy status` and `preview status`: one call serves both, so the command lives beside the two
// groups (which import no files of each other) and each group registers it with its own words.
import type { Command } from 'commander';
import { action, examples } from '../command.js';
import type { Context, Deps } from '../context.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../wait-flags.js';
import type { BuildKind } from './build-watch.js';
import { addGithubOutputOption, githubTarget } from './github-output.js';

export type BuildStatusFlags = WaitFlags & { githubOutput?: boolean };

/**
 * One look at a deployment or preview build (the same call serves both), or with --wait its end:
 * the status on stdout (`success`), the log on stderr, exit 4 on `failure`.
 */
export async function buildStatus(
  kind: BuildKind,
  id: string | undefined,
  flags: BuildStatusFlags,
  ctx: Context,
): Promise<void> {
  const { checkStatusId, showBuild, watchBuild } = await import('./build-watch.js');
  const statusId = checkStatusId(id, kind);
  const wait = parseWaitFlags(flags);
  const github = await githubTarget(ctx, flags.githubOutput);
  const api = await ctx.api();
  if (wait.wait) {
    const build = await watchBuild({ kind, statusId, wait, github }, ctx);
    if (!ctx.mode.json) ctx.print(build.status);
    return;
  }
  const build = await api.getUpdateStatus(statusId);
  if (github) {
    const { writeGithubReport } = await import('./github-output.js');
    await writeGithubReport(github, { kind, statusId, build, status: build.status }, ctx);
  }
  await showBuild(kind, build, statusId, ctx);
}

/** `deploy status` and `preview status` differ only in words. */
export function registerStatus(group: Command, deps: Deps, kind: BuildKind): void {
  const command = group
    .command('status')
    .description(
      kind === 'deploy'
        ? 'show a deployment: its status (queued, in_progress, success, failure) on stdout (GET /v1/project/update-status)'
        : 'show a preview build: its status (queued, in_progress, success, failure) on stdout',
    )
    .argument('<statusId>', `the statusId \`${kind} start\` printed`);
  addWaitOptions(command, 'the build succeeds or fails, streaming its log to stderr (exit 4 on failure)');
  addGithubOutputOption(command);
  command.action(
    action<BuildStatusFlags>(deps, async ([statusId], flags, ctx) => {
      await buildStatus(kind, statusId, flags, ctx);
    }),
  );
  examples(command, [
    `mint-admin ${kind} status 6650d2f1c3a4b5e6f7a8b9c0 --wait`,
    `mint-admin ${kind} status 6650d2f1c3a4b5e6f7a8b9c0 --json | jq -r .summary`,
  ]);
}
