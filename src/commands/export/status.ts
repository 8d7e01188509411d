import type { Command } from 'commander';
import type { AnyExportJob } from '../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { checkId } from '../../ids.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { onJobFlow } from './flow.js';
import { addFlowOption, hintNext, jobLine } from './output.js';

export interface ExportStatusOptions {
  jobId: string;
  wait: WaitSettings;
}

/** One look at the job, or with --wait its final state (`failed` throws, exit 4). */
export async function exportStatus(opts: ExportStatusOptions, ctx: Context): Promise<AnyExportJob> {
  const { api, value: job } = await onJobFlow(opts.jobId, ctx, (flow) => flow.get(opts.jobId));
  if (!opts.wait.wait) return job;
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  // The look that settled the flow is the wait's first poll: no second GET for the same moment.
  let seen: AnyExportJob | undefined = job;
  const fetch = (jobId: string) => {
    const first = seen;
    seen = undefined;
    return first ? Promise.resolve(first) : api.get(jobId);
  };
  return followExport({ jobId: opts.jobId, fetch, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs }, ctx);
}

export function checkJobId(jobId: string | undefined): string {
  return checkId('export job id', jobId, 'use the id `mint-admin export start` printed');
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('status')
    .description('show an export job: status, and progress and pages so far where the flow reports them')
    .argument('<jobId>', 'the id `export start` printed');
  addWaitOptions(addFlowOption(command), 'the export completes or fails').action(
    action<WaitFlags>(deps, async ([jobId], flags, ctx) => {
      const job = await exportStatus({ jobId: checkJobId(jobId!), wait: parseWaitFlags(flags) }, ctx);
      if (ctx.mode.json) return printJson(ctx, job);
      ctx.print(jobLine(job, ctx.clock.now()));
      hintNext(job, ctx.reporter);
    }),
  );
  examples(command, ['mint-admin export status se_3f9a2c1b8e7d4a06', 'mint-admin export status se_3f9a2c1b8e7d4a06 --wait --timeout 1h']);
}
