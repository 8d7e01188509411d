import type { Command } from 'commander';
import type { AgentJob } from '../../../api/types.js';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags } from '../../wait-flags.js';
import { checkJobId, readPrompt } from './prompt.js';

export interface AgentMessageOptions {
  jobId: string;
  words: string[];
  file?: string | undefined;
  wait: WaitFlags;
}

/** Sends a follow-up instruction to a job and, with --wait, follows the job to its end again. */
export async function agentMessage(opts: AgentMessageOptions, ctx: Context): Promise<AgentJob> {
  const jobId = checkJobId(opts.jobId);
  const wait = parseWaitFlags(opts.wait);
  const prompt = await readPrompt({ words: opts.words, file: opts.file }, ctx);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const [{ waitForAgentJob, agentGetCommand }, { explainMessageFailure }] = await Promise.all([
    import('./follow.js'),
    import('../uncertain-post.js'),
  ]);
  let updated: AgentJob;
  try {
    updated = await api.sendAgentMessage(projectId, jobId, prompt);
  } catch (error) {
    throw explainMessageFailure(error, agentGetCommand(jobId, ctx, []));
  }
  if (!wait.wait) return updated;
  return waitForAgentJob(
    { projectId, jobId, intervalMs: wait.intervalMs, timeoutMs: wait.timeoutMs, known: updated },
    ctx,
  );
}

type MessageFlags = WaitFlags & { file?: string };

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('message')
    .description('send a follow-up instruction to an agent job (it updates the same pull request)')
    .argument('<jobId>', 'the id `agent run` printed')
    .argument('[prompt...]', 'the follow-up instruction (words are joined by spaces)')
    .option('-f, --file <path>', 'read the prompt from a file ("-" = stdin)');
  addWaitOptions(command, 'the job is completed, archived or failed again, then print the pull request link');
  command.action(
    action<MessageFlags>(deps, async ([jobId, words], flags, ctx) => {
      const job = await agentMessage(
        { jobId: jobId!, words: (words as unknown as string[] | undefined) ?? [], file: flags.file, wait: flags },
        ctx,
      );
      const { showAgentJob } = await import('./follow.js');
      await showAgentJob(job, ctx, { waited: Boolean(flags.wait), started: true });
    }),
  );
  examples(command, [
    'mint-admin agent message 6f1c0d2e9a7b "Also add a curl example" --wait',
    'mint-admin agent message 6f1c0d2e9a7b -f review-notes.md',
  ]);
}
