// The CLI's face over the one list export (src/list-export/engine.ts), for `searches list` and every
// analytics list: the engine is handed the API, the project, the output and the terminal, and the
// words a person reads are written here: progress while every page is fetched, the totals and the
// footer after the data, and on an early stop the command that carries on from the next unwritten
// page, before the error that stopped it.
import { exportList, type ListResult, type ListSpec } from '../../list-export/engine.js';
import type { ListExportOptions } from '../../list-export/options.js';
import { fileTarget, stdoutTarget } from '../../output/target.js';
import type { Context } from '../context.js';
import { listResumeCommand, resumeNote } from './list-resume.js';
import { analyticsVoice, type ListVoice, requestsUsed } from './list-voice.js';

export type { ListResult } from '../../list-export/engine.js';

/** A list as a command runs it: the engine's spec, the command's words and how it speaks on stderr. */
export interface ListCommandSpec<Page extends object, Item> extends ListSpec<Page, Item> {
  /** The command as typed, for resume commands: ['analytics', 'feedback']. */
  command: string[];
  /** A line of totals shown after a table (views, visitors). */
  totals?(last: Page): string;
  /** How the list speaks on stderr; default: an analytics list's words (list-voice.ts). */
  voice?: ListVoice<Page>;
}

export async function runList<Page extends object, Item>(
  spec: ListCommandSpec<Page, Item>,
  opts: ListExportOptions,
  ctx: Context,
): Promise<ListResult<Page>> {
  const voice = spec.voice ?? analyticsVoice(spec.noun);
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  const target = opts.output === undefined ? stdoutTarget(ctx.io.stdout) : await fileTarget(opts.output, ctx);
  const progress =
    opts.all && (opts.output !== undefined || !ctx.io.stdoutIsTTY)
      ? await ctx.reporter.activity(`fetching ${voice.fetching}`)
      : undefined;
  const { result, end } = await exportList({ ...spec, counted: voice.counted }, opts, {
    api,
    projectId,
    target,
    terminal: { stdoutIsTTY: ctx.io.stdoutIsTTY, columns: ctx.io.columns, color: ctx.mode.color },
    onPage: (sofar) => progress?.update(`fetching ${voice.fetching}: ${sofar.items} so far (page ${sofar.pages})`),
  }).finally(() => progress?.stop());
  if (end.how === 'stopped' && end.resumable && result.next !== null) {
    const where = opts.output === undefined ? '' : ` to ${opts.output}`;
    ctx.reporter.warn(
      `stopped after ${voice.stoppedAfter(result)}; what was written${where} ends with a whole row.\n` +
        `To carry on from ${voice.nextOne} (${resumeNote(opts)}), run:\n  ${listResumeCommand(spec.command, opts, ctx.globals, result.next)}`,
    );
  }
  if (voice.countsRequests)
    ctx.debug(`analytics requests used: ${result.requests} (the organization shares 100 an hour)`);
  if (end.how === 'stopped') throw end.error;
  if (end.how === 'reader-gone') return result;
  if (opts.format === 'table' && result.last && spec.totals) ctx.reporter.info(spec.totals(result.last));
  if (opts.format !== 'json') ctx.reporter.info(voice.footer(result, opts));
  else if (opts.all && voice.countsRequests) ctx.reporter.info(requestsUsed(result.requests));
  return result;
}
