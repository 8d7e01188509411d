// Following a deployment or preview build to its end, shared by `deploy start|status` and
// `preview start|status` (so it lives beside the groups, not in one): the engine's wait
// (src/waits/build.ts) shown to a person, each new log line on stderr once, and what each ending
// means: success returns, failure is exit 4 with the summary and the last log lines, the timeout
// exit 5 with the command that resumes the wait. The step outputs of --github-output are written on
// every ending, so later steps can read them.
import type { UpdateStatus } from '../../api/types.js';
import { printJson } from '../command.js';
import { retryingIn, type Context } from '../context.js';
import { formatDuration } from '../../duration.js';
import { InterruptedError, JobFailedError, WaitTimeoutError, briefReason } from '../../errors.js';
import { checkId } from '../../ids.js';
import { repeatedFlags, shellCommand } from '../shell.js';
import { unknownStatusError } from '../unknown-status.js';
import type { WaitSettings } from '../wait-flags.js';
import { followBuild, isBuildOver, type FollowedBuild } from '../../waits/build.js';
import { BuildTimeoutError, UnknownStatusError } from '../../waits/errors.js';
import { writeGithubReport, type GithubTarget } from './github-output.js';

export type BuildKind = 'deploy' | 'preview';

/** Log lines repeated in the failure message: the error line of a CI job should say why on its own. */
const FAILURE_TAIL_LINES = 5;
/** How often the elapsed time on a live spinner moves between polls. */
const LIVE_TICK_MS = 1000;

export function checkStatusId(statusId: string | undefined, kind: BuildKind): string {
  return checkId('status id', statusId, `use the statusId \`mint-admin ${kind} start\` printed`);
}

export interface WatchOptions {
  kind: BuildKind;
  statusId: string;
  wait: WaitSettings;
  github?: GithubTarget | undefined;
  /** A preview's URL from the start call: written to the outputs only once the build succeeded. */
  previewUrl?: string | undefined;
}

/**
 * Waits for the build and returns it once it succeeded. Failure throws JobFailedError (exit 4), the
 * timeout WaitTimeoutError (5), Ctrl-C InterruptedError, a status newer than this CLI exit 1.
 * With --json, the final status object is printed on success and failure alike.
 */
export async function watchBuild(opts: WatchOptions, ctx: Context): Promise<UpdateStatus> {
  const { kind, statusId } = opts;
  const api = await ctx.api();
  const resume = buildStatusCommand(kind, statusId, ctx, ['--wait']);
  const started = ctx.clock.now();
  const activity = await ctx.reporter.activity(
    `${kind} ${statusId}: waiting for the build (Ctrl-C stops waiting; the build goes on)`,
  );
  let last: UpdateStatus | undefined;
  const report = (status: string, previewUrl?: string) =>
    opts.github
      ? writeGithubReport(
          opts.github,
          { kind, statusId, build: last, status, previewUrl, followedMs: ctx.clock.now() - started },
          ctx,
        )
      : undefined;
  // On a terminal the spinner's line also shows the time passing, which moves between polls (they can
  // be half a minute apart), and the last retry note until the next answer. Plain lines stay as they are.
  let note = '';
  const liveLine = () =>
    `${kind} ${statusId}: ${last?.status ?? 'waiting'}  ${formatDuration(ctx.clock.now() - started)}${note ? `  (${note})` : ''}`;
  const ticker = ctx.reporter.live ? setInterval(() => activity.update(liveLine()), LIVE_TICK_MS).unref() : undefined;
  const stopTicker = () => ticker && clearInterval(ticker);
  let followed: FollowedBuild;
  try {
    followed = await followBuild({
      api,
      statusId,
      intervalMs: opts.wait.intervalMs,
      timeoutMs: opts.wait.timeoutMs,
      clock: ctx.clock,
      signal: ctx.signal,
      random: ctx.random,
      onEvent: (event) => {
        if (event.kind === 'status') {
          last = event.build;
          note = '';
          if (ctx.reporter.live) activity.update(liveLine());
          else if (event.changed && !isBuildOver(event.build))
            activity.update(`${kind} ${statusId}: ${event.build.status}`, { milestone: true });
        } else if (event.kind === 'log') {
          // One write for all the new lines: a line a write took seconds for a log of 300,000 lines.
          ctx.reporter.info(event.lines.join('\n'));
        } else {
          note = `${briefReason(event.error)}; ${retryingIn(event.retryInMs)}`;
          activity.update(ctx.reporter.live ? liveLine() : `${kind} ${statusId}: ${note}`, { milestone: true });
        }
      },
    });
  } catch (error) {
    stopTicker();
    if (error instanceof UnknownStatusError) {
      // The wait saw the status; it is printed and reported as any ending is.
      if (ctx.mode.json) printJson(ctx, withPreviewUrl(error.lastSeen as UpdateStatus, opts.previewUrl));
      activity.stop();
      await report(error.status);
      throw unknownStatusError(
        `${kind} ${statusId}`,
        error.status,
        buildStatusCommand(kind, statusId, ctx, ['--json']),
      );
    }
    activity.stop();
    // --json: a pipeline reads the last status seen whatever ended the wait; the exit code says what did.
    if (ctx.mode.json && last) printJson(ctx, withPreviewUrl(last, opts.previewUrl));
    if (error instanceof BuildTimeoutError) await report(last?.status ?? 'unknown');
    if (ctx.signal.aborted) {
      throw new InterruptedError(
        `stopped waiting; ${kind} ${statusId} keeps building on the server: resume the wait with \`${resume}\``,
      );
    }
    if (error instanceof BuildTimeoutError) {
      throw new WaitTimeoutError(
        `gave up waiting after ${formatDuration(error.elapsedMs)}: ${kind} ${statusId} is still ${error.lastSeen?.status ?? 'not answering'} and keeps building on the server; resume the wait with \`${resume}\``,
      );
    }
    throw error;
  }
  stopTicker();
  const { build } = followed;
  if (ctx.mode.json) printJson(ctx, withPreviewUrl(build, opts.previewUrl));
  const took = formatDuration(ctx.clock.now() - started);
  if (build.status === 'failure') {
    activity.fail(`${kind} ${statusId}: failure after ${took}`);
    await report('failure');
    throw new JobFailedError(failureMessage(kind, statusId, build, followed.logTail(FAILURE_TAIL_LINES)));
  }
  activity.succeed(`${kind} ${statusId}: success after ${took}`);
  await report('success', opts.previewUrl);
  return build;
}

/**
 * A preview's --json output carries the link beside the build, so `jq -r .previewUrl` reads it, and
 * only once the build succeeded: a pipeline that ignores the exit code still never posts a dead link.
 */
function withPreviewUrl(
  build: UpdateStatus,
  previewUrl: string | undefined,
): UpdateStatus | (UpdateStatus & { previewUrl: string }) {
  return previewUrl === undefined || build.status !== 'success' ? build : { ...build, previewUrl };
}

function failureMessage(kind: BuildKind, statusId: string, build: UpdateStatus, tail: string[]): string {
  const what = kind === 'deploy' ? 'the deployment' : 'the preview build';
  const lines =
    tail.length > 0 ? `; last log lines:\n${tail.map((l) => `  ${l}`).join('\n')}` : '; the build sent no log';
  return `${what} ${statusId} failed${build.summary ? `: ${build.summary}` : ''}${lines}`;
}

/**
 * `mint-admin deploy status <id> ...` with the flags that chose the profile and server, so the
 * command works when pasted into the same shell (the status call needs no project).
 */
export function buildStatusCommand(kind: BuildKind, statusId: string, ctx: Context, flags: string[]): string {
  return shellCommand([
    'mint-admin',
    kind,
    'status',
    statusId,
    ...flags,
    ...repeatedFlags(ctx.globals, ['profile', 'baseUrl']),
  ]);
}

/** One look at a build without waiting: the status on stdout, the rest on stderr. */
export async function showBuild(kind: BuildKind, build: UpdateStatus, statusId: string, ctx: Context): Promise<void> {
  if (ctx.mode.json) return printJson(ctx, build);
  ctx.print(build.status);
  if (build.summary) ctx.reporter.info(`summary: ${build.summary}`);
  if (!isBuildOver(build)) ctx.reporter.info(`follow it: ${buildStatusCommand(kind, statusId, ctx, ['--wait'])}`);
}
