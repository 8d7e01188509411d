import type { Command } from 'commander';
import type { Bundle } from '../../../api/types.js';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { formatDuration } from '../../../duration.js';
import { onJobFlow } from './flow.js';
import { addFlowOption, formatBytes } from './output.js';
import { checkJobId } from './status.js';

/**
 * A fresh presigned link to the archive of a completed job (not finished yet: exit 1): the jobs flow's
 * POST bundle, or on the project flow a GET of the job, which carries a fresh link once completed.
 */
export async function exportBundle(opts: { jobId: string }, ctx: Context): Promise<Bundle> {
  return (await onJobFlow(opts.jobId, ctx, (flow) => flow.link(opts.jobId))).value;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('bundle')
    .description('get a download link (presigned, time-limited) to a completed export; the only command that prints it')
    .argument('<jobId>', 'a completed export job');
  addFlowOption(command).action(
    action(deps, async ([jobId], _flags, ctx) => {
      const bundle = await exportBundle({ jobId: checkJobId(jobId!) }, ctx);
      if (ctx.mode.json) return printJson(ctx, bundle);
      // The URL alone on stdout, so `curl -o site.tar.gz "$(mint-admin export bundle ID)"` works.
      ctx.print(bundle.bundleUrl);
      const left = Date.parse(bundle.expiresAt) - ctx.clock.now();
      const expiry = Number.isFinite(left) ? ` (in ${formatDuration(left)})` : '';
      ctx.reporter.info(
        `${formatBytes(bundle.sizeBytes)}; the link expires at ${bundle.expiresAt}${expiry}. Treat it as a secret until then.`,
      );
    }),
  );
  examples(command, [
    'mint-admin export bundle se_3f9a2c1b8e7d4a06',
    'curl -fL -o site.tar.gz "$(mint-admin export bundle se_3f9a2c1b8e7d4a06)"',
  ]);
}
