// Ids that become a segment of a URL path, checked the same way for every command. An empty id, a
// "." or "..", or one with a "/" or "\" would address a different resource than the one named (and
// send the key there: `export status ..` is `GET /v1/static-export/`); control characters have no
// business in an id and would reach the terminal in messages.
import { ApiError, UsageError } from './errors.js';

const UNSAFE = /[/\\\s\x00-\x1f\x7f-\x9f]/;

/**
 * True when the value is a string that can be a path segment as it is. The type is checked first: a
 * script's parsed JSON can hand over `['..']`, which a regular expression sees as the string "..".
 */
export function isSafeSegment(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value !== '.' && value !== '..' && !UNSAFE.test(value);
}

/** A value for a message: strings quoted, anything else named by its type (an id is never printed raw). */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/**
 * An id from the command line, trimmed; a UsageError (exit 2, nothing sent) when it cannot be a path
 * segment. `kind` names it ("job id"), `hint` says where a good one comes from.
 */
export function checkId(kind: string, value: string | undefined, hint: string): string {
  return checkExactId(kind, (value ?? '').trim(), hint);
}

/**
 * An id a program handed in (the library): used exactly as given, so it must be a string that is a
 * path segment as it is; anything else is a UsageError (nothing sent).
 */
export function checkExactId(kind: string, value: unknown, hint: string): string {
  if (typeof value !== 'string')
    throw new UsageError(`the ${kind} must be a string, not ${describeValue(value)}; ${hint}`);
  if (value === '') throw new UsageError(`the ${kind} is empty; ${hint}`);
  if (!isSafeSegment(value)) {
    throw new UsageError(
      `${JSON.stringify(value)} is not ${article(kind)} ${kind} (no "/", "\\", spaces or control characters, and not "." or ".."); ${hint}`,
    );
  }
  return value;
}

/** What ids from the server may look like: they are put into URL paths and printed into commands. */
const PLAIN_TOKEN = /^[A-Za-z0-9._-]{1,256}$/;

/** Whether a server string may be used as an id: a plain token, and not "." or "..". */
export function isPlainToken(value: string): boolean {
  return PLAIN_TOKEN.test(value) && value !== '.' && value !== '..';
}

/**
 * An id the API sent, which the CLI will put into a URL and print into a command for the user to
 * run: anything but a plain token is refused (exit 1) rather than used. `after` says what already
 * happened on the server, e.g. "the export was started".
 */
export function checkServerId(kind: string, value: unknown, after?: string): string {
  if (typeof value === 'string' && isPlainToken(value)) return value;
  const shown = typeof value === 'string' ? JSON.stringify(value) : String(value);
  throw new ApiError(
    `unexpected answer from the API: the ${kind} ${shown} is not a plain token (letters, digits, ".", "_", "-"), so it is not used in a URL or printed into a command${after ? `; ${after}` : ''}`,
    200,
  );
}

function article(kind: string): string {
  return /^[aeiou]/i.test(kind) ? 'an' : 'a';
}
