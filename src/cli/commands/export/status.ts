import type { Command } from 'commander';
import type { AnyExportJob } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { checkId } from '../../../ids.js';
import { addWaitOptions, parseWaitFlags, type WaitFlags, type WaitSettings } from '../../wait-flags.js';
import { waitCommand } from './api.js';
import { onJobFlow, type FlowApi } from './flow.js';
import { addFlowOption, hintNext, jobLine } from './output.js';

export interface ExportStatusOptions {
  jobId: string;
  wait: WaitSettings;
}

/** One look at the job, or with --wait its final state (`failed` throws, exit 4). */
export async function exportStatus(opts: ExportStatusOptions, ctx: Context): Promise<AnyExportJob> {
  if (!opts.wait.wait) return (await onJobFlow(opts.jobId, ctx, (flow) => flow.get(opts.jobId))).value;
  // The wait loop pulls in the HTTP layer (undici): loaded only when a command really waits.
  const { followExport } = await import('./follow.js');
  // The wait's first poll also settles the flow, so that look too is cut off at the --timeout deadline;
  // later polls go straight to the flow that answered.
  let settled: FlowApi | undefined;
  const fetch = async (jobId: string, signal?: AbortSignal): Promise<AnyExportJob> => {
    if (settled) return settled.get(jobId, signal);
    const { api, value } = await onJobFlow(jobId, ctx, (flow) => flow.get(jobId, signal));
    settled = api;
    return value;
  };
  const resume = waitCommand(opts.jobId, ctx.globals);
  return followExport(
    { jobId: opts.jobId, fetch, intervalMs: opts.wait.intervalMs, timeoutMs: opts.wait.timeoutMs, resume },
    ctx,
  );
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
      hintNext(job, ctx.reporter, ctx.globals);
    }),
  );
  examples(command, [
    'mint-admin export status se_3f9a2c1b8e7d4a06',
    'mint-admin export status se_3f9a2c1b8e7d4a06 --wait --timeout 1h',
  ]);
}
