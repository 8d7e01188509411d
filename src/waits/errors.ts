// How a wait ends badly, as data a program can act on: the last look at the job, how long the wait
// ran, the status it could not place. The messages are plain statements for a log; the CLI catches
// these and words them for a person (the command that resumes the wait, where to look).
import type { AgentJob, UpdateStatus } from '../api/types.js';
import { formatDuration } from '../duration.js';
import { JobFailedError, MintAdminError, WaitTimeoutError } from '../errors.js';

/** The deadline passed; the job keeps running on the server. `lastSeen` is undefined when no look succeeded. */
export class AgentJobTimeoutError extends WaitTimeoutError {
  constructor(
    readonly jobId: string,
    readonly elapsedMs: number,
    readonly lastSeen: AgentJob | undefined,
  ) {
    super(
      `agent job ${jobId} did not finish within ${formatDuration(elapsedMs)} (last status: ${lastSeen?.status ?? 'none seen'}); it keeps running on the server`,
    );
  }
}

/** The deadline passed; the build goes on on the server. `lastSeen` is undefined when no look succeeded. */
export class BuildTimeoutError extends WaitTimeoutError {
  constructor(
    readonly statusId: string,
    readonly elapsedMs: number,
    readonly lastSeen: UpdateStatus | undefined,
  ) {
    super(
      `build ${statusId} did not finish within ${formatDuration(elapsedMs)} (last status: ${lastSeen?.status ?? 'none seen'}); it keeps building on the server`,
    );
  }
}

/** The job ended `failed`. */
export class AgentJobFailedError extends JobFailedError {
  constructor(readonly job: AgentJob) {
    super(`agent job ${job.id} failed`);
  }
}

/** The build ended `failure`; `lastLogLines` are the end of its log, which usually says why. */
export class BuildFailedError extends JobFailedError {
  constructor(
    readonly statusId: string,
    readonly build: UpdateStatus,
    readonly lastLogLines: string[],
  ) {
    super(`build ${statusId} failed${build.summary ? `: ${build.summary}` : ''}`);
  }
}

/**
 * The job reports a status this version does not know (the API grew a state since), so whether it
 * will ever finish is unknowable and the wait stops rather than polling to its deadline.
 */
export class UnknownStatusError<T extends { status: string } = { status: string }> extends MintAdminError {
  readonly status: string;
  constructor(
    readonly what: string,
    readonly lastSeen: T,
  ) {
    super(`${what} reports status ${JSON.stringify(lastSeen.status.slice(0, 40))}, which this version does not know`);
    this.status = lastSeen.status;
  }
}
