// An answer the transport cannot return as data, turned into the error a program branches on: the
// class, the status, a code, the call, and what the server said (scrubbed of the key, one line, cut
// short). The words say what went wrong; what to do about it with the CLI's flags is the CLI's to
// add (src/cli/cli-errors.ts).
import { retryWhen } from '../duration.js';
import { ApiError, RateLimitError } from '../errors.js';
import { scrubSecrets } from '../redact.js';
import { forTerminal } from '../terminal-text.js';
import { rateLimitNote } from './limits.js';
import * as schemas from './schemas.js';

/** One answer as the transport read it. */
export interface Answered {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** A 2xx body went past MAX_BODY_BYTES; the request was aborted. */
  overflowed: boolean;
  contentType: string;
  /** The parsed body; null for an empty one, undefined when it is not JSON. */
  json: unknown;
}

/** The call an answer belongs to: its method and documented route (`/v2/agent/{projectId}/job`). */
export interface Call {
  method: string;
  route: string;
}

const describe = (call: Call) => `${call.method} ${call.route}`;

/** How much of the server's own words goes into a message. */
const SERVER_TEXT_CHARS = 300;

/** A non-2xx other than a 429 that is given up on. */
export function apiErrorOf(call: Call, response: Answered, apiKey: string): ApiError {
  const { status } = response;
  const { message, details } = serverText(response, apiKey);
  // An HTML page on a failure is most often a proxy's or gateway's, not the API's.
  if (response.json === undefined && (message === undefined || isHtml(response))) {
    const kind = response.contentType.split(';')[0]?.trim() || 'a body';
    return new ApiError(`the API answered ${status} with ${kind} instead of JSON (a proxy or gateway page?)`, status, {
      code: 'not_json',
      ...call,
    });
  }
  const said = [message, ...details].filter(Boolean).join('; ');
  const text = (() => {
    if (status === 401) return `the API refused the admin key (401${said ? `: ${said}` : ''})`;
    if (status === 403)
      return `permission denied (403${said ? `: ${said}` : ''}); the key may not have access to this project or feature`;
    if (status === 404) return `not found (404${said ? `: ${said}` : ''})`;
    if (status >= 500) return `the API failed (${status}${said ? `: ${said}` : ''}); try again later`;
    return `the API rejected the request (${status}${said ? `: ${said}` : ''})`;
  })();
  // The documented error body is `{"error": "..."}`: anything else may be a server that is not the API.
  const fromApi = typeof (response.json as { error?: unknown } | null)?.error === 'string';
  return new ApiError(text, status, { serverMessage: message, details, fromApi, ...call });
}

/** A 429 past the retries, or with a Retry-After past what we sit out: when to come back. */
export function rateLimitErrorOf(
  call: Call,
  response: Answered,
  retryAfterMs: number | undefined,
  now: number,
  apiKey: string,
): RateLimitError {
  const { message } = serverText(response, apiKey);
  const limit = rateLimitNote(describe(call));
  const when = retryAfterMs === undefined ? 'wait a while before trying again' : retryWhen(now + retryAfterMs, now);
  return new RateLimitError(
    `rate limited by the API${message ? ` (${message})` : ''}${limit ? `; ${limit}` : ''}; ${when}`,
    retryAfterMs === undefined ? undefined : now + retryAfterMs,
    message,
    call,
  );
}

/** A 2xx body past the cap: the request was aborted there. */
export function tooLargeError(call: Call, status: number, maxBodyBytes: number): ApiError {
  return new ApiError(
    `the API sent more than ${maxBodyBytes / 1024 / 1024} MB in answer to ${describe(call)}, far more than any documented answer`,
    status,
    {
      code: 'too_large',
      ...call,
    },
  );
}

/**
 * A 2xx that is not data: no body, `null`, a page from a proxy, a missing or mistyped field.
 * `problem` is the first thing wrong with it.
 */
export function unusableAnswerError(call: Call, response: Answered, problem: string): ApiError {
  const code = response.json === undefined ? 'not_json' : 'unexpected_answer';
  return new ApiError(`unexpected answer from the API to ${describe(call)}: ${problem}`, response.status, {
    code,
    ...call,
  });
}

/**
 * What the server said about a failure: `{ error, details }` from a JSON body, or the words of a
 * plain-text or HTML one (the organization-wide 429 is plain text). Scrubbed of the key, flattened
 * to one line without control characters, and cut short.
 */
function serverText(response: Answered, apiKey: string): { message: string | undefined; details: string[] } {
  const tidy = (s: string) => oneLine(scrubSecrets(s, [apiKey]));
  if (response.json !== undefined) {
    const body = schemas.checkAnswer(schemas.ErrorBody, response.json);
    if (!body.ok) return { message: undefined, details: [] };
    const message = body.value.error === undefined ? undefined : tidy(body.value.error) || undefined;
    return { message, details: (body.value.details ?? []).map((d) => tidy(d.message)).filter(Boolean) };
  }
  const kind = response.contentType.split(';')[0]?.trim().toLowerCase();
  const words = isHtml(response) ? htmlText(response.text) : kind === 'text/plain' || kind === '' ? response.text : '';
  return { message: tidy(words) || undefined, details: [] };
}

/** Server words for a one-line message: control characters (escape sequences too) become spaces. */
function oneLine(text: string): string {
  // Line breaks and runs of space fold to one space; any other control character (an escape
  // sequence) is shown in caret notation like all server text (src/terminal-text.ts), not obeyed.
  const flat = forTerminal(text.replace(/\s+/g, ' ').trim());
  return flat.length > SERVER_TEXT_CHARS ? `${flat.slice(0, SERVER_TEXT_CHARS)}...` : flat;
}

function isHtml(response: Answered): boolean {
  return /^\s*text\/html\b/i.test(response.contentType);
}

/** The readable words of a small HTML page (a gateway's "429 Too Many Requests"). */
function htmlText(html: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1];
  const body = html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  return decodeEntities(title?.trim() || body);
}

function decodeEntities(text: string): string {
  return text.replace(
    /&(amp|lt|gt|quot|#39|nbsp);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' })[e] ?? '',
  );
}
