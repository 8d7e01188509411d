import type { Command } from 'commander';
import type { AgentJob } from '../../../api/types.js';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../../wait-flags.js';
import { checkServerId } from '../../../ids.js';
import { addGithubOutputOption, githubTarget } from '../github-output.js';
import { readPrompt } from './prompt.js';

export interface AgentRunOptions {
  words: string[];
  file?: string | undefined;
  wait: WaitFlags;
}

/**
 * Creates an agent job and, with --wait, follows it to its end. Returns the last look at the job.
 * Every input is checked before the one POST; that POST is never sent twice.
 */
export async function agentRun(opts: AgentRunOptions, ctx: Context): Promise<AgentJob> {
  const wait = parseWaitFlags(opts.wait);
  const prompt = await readPrompt({ words: opts.words, file: opts.file }, ctx);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  // Loaded here, once the job is about to be created: the wait and the advice after a failed create are
  // needed by nothing before it (undici itself is already loaded by ctx.api() above).
  const [{ waitForAgentJob }, { explainCreateFailure }] = await Promise.all([
    import('./follow.js'),
    import('../uncertain-post.js'),
  ]);
  let created: AgentJob;
  try {
    created = await api.createAgentJob(projectId, prompt);
  } catch (error) {
    throw explainCreateFailure(error, ctx.clock.now());
  }
  checkServerId(
    'agent job id',
    created.id,
    "the job was created: follow it in the Mintlify dashboard and the repository's pull requests",
  );
  if (!wait.wait) return created;
  return waitForAgentJob(
    { projectId, jobId: created.id, intervalMs: wait.intervalMs, timeoutMs: wait.timeoutMs, known: created },
    ctx,
  );
}

type RunFlags = WaitFlags & { file?: string; githubOutput?: boolean };

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('run')
    .description('start an agent job: the agent edits your docs and opens a pull request')
    .argument('[prompt...]', 'the instruction for the agent (words are joined by spaces)')
    .option('-f, --file <path>', 'read the prompt from a file ("-" = stdin)');
  addWaitOptions(command, 'the job is completed, archived or failed, then print the pull request link');
  addGithubOutputOption(command);
  command.action(
    action<RunFlags>(deps, async ([words], flags, ctx) => {
      const github = await githubTarget(ctx, flags.githubOutput);
      const job = await agentRun(
        { words: (words as unknown as string[] | undefined) ?? [], file: flags.file, wait: flags },
        ctx,
      );
      if (github) {
        const { writeGithubOutputs } = await import('../github-output.js');
        await writeGithubOutputs(
          github,
          [
            ['job-id', job.id],
            ['status', job.status],
            ['pr-link', job.prLink],
          ],
          ctx,
        );
      }
      const { showAgentJob } = await import('./follow.js');
      await showAgentJob(job, ctx, { waited: Boolean(flags.wait), started: true });
    }),
  );
  examples(command, [
    'mint-admin agent run "Document the new /v2/users endpoint" --wait',
    'mint-admin agent run -f prompt.md --wait --timeout 1h',
    'git log -1 --format=%B | mint-admin agent run -f - --json',
  ]);
}
