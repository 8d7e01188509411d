import type { Command } from 'commander';
import type { AgentJob } from '../../../api/types.js';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../../wait-flags.js';
import { checkJobId } from './prompt.js';

export interface AgentGetOptions {
  jobId: string;
  wait: WaitFlags;
}

/** One look at a job, or with --wait the look at which it was completed, archived or failed. */
export async function agentGet(opts: AgentGetOptions, ctx: Context): Promise<AgentJob> {
  const jobId = checkJobId(opts.jobId);
  const wait = parseWaitFlags(opts.wait);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  if (!wait.wait) return api.getAgentJob(projectId, jobId);
  const { waitForAgentJob } = await import('./follow.js');
  return waitForAgentJob({ projectId, jobId, intervalMs: wait.intervalMs, timeoutMs: wait.timeoutMs }, ctx);
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('get')
    .description('show an agent job: its status and pull request link')
    .argument('<jobId>', 'the id `agent run` printed');
  addWaitOptions(command, 'the job is completed, archived or failed, then print the pull request link');
  command.action(
    action<WaitFlags>(deps, async ([jobId], flags, ctx) => {
      const job = await agentGet({ jobId: jobId!, wait: flags }, ctx);
      const { showAgentJob } = await import('./follow.js');
      await showAgentJob(job, ctx, { waited: Boolean(flags.wait) });
    }),
  );
  examples(command, [
    'mint-admin agent get 6f1c0d2e9a7b --wait',
    'mint-admin agent get 6f1c0d2e9a7b --json | jq -r .prLink',
  ]);
}
