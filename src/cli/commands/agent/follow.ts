// Following an agent job to its end, shared by run, get and message: the engine's wait
// (src/waits/agent-job.ts) shown to a person (a spinner with the elapsed time on a terminal, one line
// per status change in CI) and what each ending means for the user (what goes to stdout, what is said
// on stderr, the exit code, the command that resumes the wait).
import type { AgentJob } from '../../../api/types.js';
import { unknownStatusError } from '../../unknown-status.js';
import { printJson } from '../../command.js';
import { retryingIn, type Context } from '../../context.js';
import { formatDuration } from '../../../duration.js';
import { InterruptedError, JobFailedError, WaitTimeoutError, briefReason } from '../../../errors.js';
import type { Activity } from '../../../reporter.js';
import {
  followAgentJob,
  isFinishedAgentStatus,
  isUnknownAgentStatus,
  type FinishedAgentJobStatus,
} from '../../../waits/agent-job.js';
import { AgentJobTimeoutError, UnknownStatusError } from '../../../waits/errors.js';
import { checkServerId } from '../../../ids.js';
import { repeatedFlags, shellCommand } from '../../shell.js';
import { printStarted } from '../../started.js';

export interface FollowOptions {
  projectId: string;
  jobId: string;
  intervalMs: number;
  timeoutMs: number;
  /** The job as the create or message call returned it, so the first line can show its status. */
  known?: AgentJob;
}

/** Polls until the job is completed, archived or failed, and returns that last look at it. */
export async function waitForAgentJob(opts: FollowOptions, ctx: Context): Promise<AgentJob> {
  const { jobId } = opts;
  const api = await ctx.api();
  const resume = agentGetCommand(jobId, ctx, ['--wait']);
  const view = await WaitView.start(jobId, opts.known?.status, ctx);
  let lastSeen = opts.known;
  try {
    const job = await followAgentJob({
      api,
      projectId: opts.projectId,
      jobId,
      intervalMs: opts.intervalMs,
      timeoutMs: opts.timeoutMs,
      clock: ctx.clock,
      signal: ctx.signal,
      random: ctx.random,
      knownStatus: opts.known?.status,
      onEvent: (event) => {
        if (event.kind === 'retry') return view.transient(event.error, event.retryInMs);
        lastSeen = event.job;
        view.status(event.job.status);
      },
    });
    view.finished(job.status);
    return job;
  } catch (error) {
    view.stop();
    // --json: a pipeline reads the last known job whatever ended the wait; the exit code says what did.
    if (ctx.mode.json && lastSeen) printJson(ctx, lastSeen);
    if (ctx.signal.aborted) {
      throw new InterruptedError(
        `stopped waiting; agent job ${jobId} keeps running on the server: resume the wait with \`${resume}\``,
      );
    }
    if (error instanceof AgentJobTimeoutError) {
      throw new WaitTimeoutError(
        `gave up waiting after ${formatDuration(error.elapsedMs)}: agent job ${jobId} is still ${error.lastSeen?.status ?? 'not answering'} and keeps running on the server; resume the wait with \`${resume}\``,
      );
    }
    if (error instanceof UnknownStatusError)
      throw unknownStatusError(`agent job ${jobId}`, error.status, agentGetCommand(jobId, ctx, ['--json']));
    throw error;
  }
}

/**
 * Shows a job the way the user asked for it. After a wait, maps the ending: a pull request link on
 * stdout, a note when nothing changed or the job was archived, exit 4 when it failed. A job just
 * `started` (run, message) is printed as every start is (started.ts).
 */
export async function showAgentJob(
  job: AgentJob,
  ctx: Context,
  opts: { waited: boolean; started?: boolean },
): Promise<void> {
  if (ctx.mode.json) printJson(ctx, job);
  // The id goes into the commands printed below; the JSON above carries it escaped, as data.
  checkServerId('agent job id', job.id);
  if (!opts.waited) {
    const state = [job.status, job.prLink].filter(Boolean).join('  ');
    const readable = `${job.id}  ${state}`;
    if (!ctx.mode.json) {
      if (opts.started) printStarted(ctx, { id: job.id, readable, status: `agent job ${job.id}: ${state}` });
      else ctx.print(readable);
    }
    if (job.status === 'active') ctx.reporter.info(`follow it: ${agentGetCommand(job.id, ctx, ['--wait'])}`);
    return;
  }
  if (job.status === 'failed') {
    throw new JobFailedError(
      `agent job ${job.id} failed; see what it did with \`${agentGetCommand(job.id, ctx, ['--json'])}\` (source.ref is the branch it worked on) or in the Mintlify dashboard`,
    );
  }
  if (job.prLink && !ctx.mode.json) ctx.print(job.prLink);
  if (job.status === 'archived') {
    ctx.reporter.info(`agent job ${job.id} was archived${job.archivedAt ? ` at ${job.archivedAt}` : ''}`);
  } else if (!job.prLink) {
    ctx.reporter.info(`agent job ${job.id} completed without changing any files, so no pull request was opened`);
  }
}

/**
 * `mint-admin agent get <id> ...` with the flags that chose the project, profile and server, so the
 * command works when pasted into the same shell.
 */
export function agentGetCommand(jobId: string, ctx: Context, flags: string[]): string {
  return shellCommand([
    'mint-admin',
    'agent',
    'get',
    jobId,
    ...flags,
    ...repeatedFlags(ctx.globals, ['project', 'profile', 'baseUrl']),
  ]);
}

/** The live part of a wait. Plain mode prints only changes, so a CI log reads as a short story. */
class WaitView {
  private lastStatus: AgentJob['status'] | undefined;
  private note = '';
  private ticker: NodeJS.Timeout | undefined;
  private readonly started: number;

  private constructor(
    private readonly activity: Activity,
    private readonly jobId: string,
    private readonly ctx: Context,
    status: AgentJob['status'] | undefined,
  ) {
    this.lastStatus = status;
    this.started = ctx.clock.now();
  }

  static async start(jobId: string, status: AgentJob['status'] | undefined, ctx: Context): Promise<WaitView> {
    const first = status ? `agent job ${jobId}: ${status}` : `waiting for agent job ${jobId}`;
    const view = new WaitView(await ctx.reporter.activity(first), jobId, ctx, status);
    // The elapsed time keeps moving between polls, which can be half a minute apart.
    if (ctx.reporter.live) view.ticker = setInterval(() => view.redraw(), 1000).unref();
    return view;
  }

  status(status: AgentJob['status']): void {
    const changed = status !== this.lastStatus;
    this.lastStatus = status;
    this.note = '';
    if (isFinishedAgentStatus(status) || isUnknownAgentStatus(status)) return; // finished() or the error says it, once
    if (this.ctx.reporter.live) this.redraw();
    else if (changed) this.activity.update(`agent job ${this.jobId}: ${status}`, { milestone: true });
  }

  transient(error: unknown, retryInMs: number): void {
    this.note = `${briefReason(error)}; ${retryingIn(retryInMs)}`;
    if (this.ctx.reporter.live) this.redraw();
    else this.activity.update(`agent job ${this.jobId}: ${this.note}`, { milestone: true });
  }

  finished(status: FinishedAgentJobStatus): void {
    this.stopTicker();
    const line = `agent job ${this.jobId}: ${status} after ${formatDuration(this.ctx.clock.now() - this.started)}`;
    if (status === 'failed') this.activity.fail(line);
    else this.activity.succeed(line);
  }

  stop(): void {
    this.stopTicker();
    this.activity.stop();
  }

  private redraw(): void {
    const elapsed = formatDuration(this.ctx.clock.now() - this.started);
    const status = this.lastStatus ?? 'waiting';
    this.activity.update(`agent job ${this.jobId}: ${status}  ${elapsed}${this.note ? `  (${this.note})` : ''}`);
  }

  private stopTicker(): void {
    if (this.ticker) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
