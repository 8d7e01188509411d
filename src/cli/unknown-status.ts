// A wait that meets a status the documents do not list (the API grew a state after this CLI was
// built) cannot know whether the job will ever reach an end it understands, so it stops instead of
// polling until the timeout, and says so. Without a wait, the status is simply printed as sent.
import { MintAdminError } from '../errors.js';

export function unknownStatusError(what: string, status: string, lookCommand: string): MintAdminError {
  return new MintAdminError(
    `stopped waiting: ${what} reports status ${quoteStatus(status)}, which this version of mint-admin does not know, so it cannot tell whether the job will finish; look at it with \`${lookCommand}\` or update mint-admin`,
  );
}

/** The status as a JSON string (control characters escaped), cut short: it comes from the server. */
function quoteStatus(status: string): string {
  // eslint-disable-next-line no-control-regex
  const quoted = JSON.stringify(status.length > 40 ? `${status.slice(0, 40)}...` : status).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return quoted;
}
