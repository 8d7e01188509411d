// What to tell the user when a POST fails in a way that leaves its effect unknown. The client never
// resends such a POST (a second agent job would do the work twice); the user must look first. Shared
// by the groups that POST (agent, deploy, preview, automation), so it lives beside them.
import { neverReachedServer } from '../../api/http.js';
import { retryWhen } from '../../duration.js';
import { forPeople } from '../cli-errors.js';
import { ApiError, answerOf, InterruptedError, MintAdminError, NetworkError, RateLimitError } from '../../errors.js';
import { networkProblem } from '../../network-problem.js';

/** The documented limit of POST /v2/agent/{projectId}/job. */
export const AGENT_JOBS_PER_HOUR = 100;

/** A create that failed: the rate limit stated with when to come back, or the "it may exist" advice. */
export function explainCreateFailure(error: unknown, now: number): unknown {
  if (error instanceof RateLimitError) {
    const when =
      error.retryAt === undefined ? 'wait a while (up to an hour) before trying again' : retryWhen(error.retryAt, now);
    return new RateLimitError(
      `rate limited${error.serverMessage ? ` (${error.serverMessage})` : ''}: the API accepts ${AGENT_JOBS_PER_HOUR} agent jobs per project per hour; ${when}`,
      error.retryAt,
      error.serverMessage,
    );
  }
  const what = uncertainFailure(error);
  if (what === undefined) return error;
  return withMessage(
    error,
    `${what} while creating the agent job, so the job may have been created anyway: check the repository's pull requests and the Mintlify dashboard before running it again`,
  );
}

/** A follow-up message that failed after it may have reached the server. */
export function explainMessageFailure(error: unknown, checkCommand: string): unknown {
  const what = uncertainFailure(error);
  if (what === undefined) return error;
  return withMessage(
    error,
    `${what} while sending the message, so it may have been delivered anyway: check with \`${checkCommand}\` before sending it again`,
  );
}

/**
 * Any other POST whose effect is unknown (a deployment, a preview, an automation run): `consequence`
 * says what may exist and where to look, e.g. "the deployment may have been queued anyway: ...".
 */
export function explainUncertainPost(error: unknown, consequence: string): unknown {
  const what = uncertainFailure(error);
  if (what === undefined) return error;
  return withMessage(error, `${what}, so ${consequence}`);
}

/** Says what happened when the request may have been acted on; undefined when it surely was not. */
function uncertainFailure(error: unknown): string | undefined {
  if (error instanceof InterruptedError) return 'interrupted';
  if (error instanceof RateLimitError) return undefined;
  if (error instanceof ApiError) {
    // A 2xx lands here only when its body was unreadable (the client says what was wrong with it): the
    // server did act.
    if (error.status < 300) return forPeople(error);
    if (error.status >= 500)
      return `the API answered ${error.status}${error.serverMessage ? ` (${error.serverMessage})` : ''}`;
    return undefined;
  }
  if (error instanceof NetworkError)
    return neverReachedServer(error) ? undefined : networkProblem(error.code, error.target ?? 'the API');
  return undefined;
}

/**
 * The same kind of error (same class, so the same exit code, and the same data) with the CLI's
 * sentence, which says what to do, so no advice of the table's is added to it.
 */
function withMessage(error: unknown, message: string): MintAdminError {
  const options = { cause: error, nextStepSaid: true };
  if (error instanceof InterruptedError) return new InterruptedError(message, error.signal, options);
  if (error instanceof NetworkError) return new NetworkError(message, error.code, { ...options, target: error.target });
  if (error instanceof ApiError) return new ApiError(message, error.status, answerOf(error), options);
  return new MintAdminError(message, options);
}
