// What a 2xx answer must be before it is data: JSON that fits the endpoint's schema. Anything else is
// one ApiError naming the call and the first problem; the body itself goes only to --debug.
import type { GenericSchema, InferOutput } from 'valibot';
import { scrubSecrets } from '../redact.js';
import { tooLargeError, unusableAnswerError, type Answered, type Call } from './failures.js';
import { MAX_BODY_BYTES } from './http.js';
import * as schemas from './schemas.js';

/** Where an unusable body may be shown (--debug lines), and the key to scrub from it. */
export interface DebugSink {
  apiKey: string;
  debug?: ((line: string) => void) | undefined;
}

/**
 * The answer's value once it fits `schema`. Anything else (no body, `null`, a page from a proxy, a
 * missing or mistyped field, a body past the cap) throws; the body itself only in --debug, with the
 * key scrubbed.
 */
export function acceptAnswer<S extends GenericSchema>(
  call: Call,
  response: Answered,
  schema: S,
  sink: DebugSink,
): InferOutput<S> {
  if (response.overflowed) {
    debugBody(call, response, sink);
    throw tooLargeError(call, response.status, MAX_BODY_BYTES);
  }
  const checked = ((): { ok: true; value: InferOutput<S> } | { ok: false; problem: string } => {
    if (response.text.trim() === '') return { ok: false, problem: `the body is empty (${response.status})` };
    if (response.json === undefined) {
      const kind = response.contentType.split(';')[0]?.trim() || 'not JSON';
      return { ok: false, problem: `the body is ${kind}, not JSON` };
    }
    if (response.json === null) return { ok: false, problem: 'the body is null' };
    return schemas.checkAnswer(schema, response.json);
  })();
  if (checked.ok) return checked.value;
  debugBody(call, response, sink);
  throw unusableAnswerError(call, response, checked.problem);
}

/** The body of an unusable answer, for --debug only: the key scrubbed, presigned signatures redacted, cut short. */
function debugBody(call: Call, response: Answered, sink: DebugSink): void {
  if (response.text !== '')
    sink.debug?.(`unexpected body from ${call.method} ${call.route}: ${forDebug(response.text, sink.apiKey)}`);
}

/** A body for a --debug line: the key scrubbed, presigned signatures redacted, cut short. */
function forDebug(text: string, apiKey: string): string {
  const scrubbed = scrubSecrets(text, [apiKey]).replace(SIGNATURE_VALUES, '$1REDACTED');
  return scrubbed.length > DEBUG_BODY_CHARS
    ? `${scrubbed.slice(0, DEBUG_BODY_CHARS)}... (${text.length} characters in all)`
    : scrubbed;
}

const DEBUG_BODY_CHARS = 2000;
const SIGNATURE_VALUES =
  /((?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature|X-Goog-Signature)=)[^&"\s]+/gi;

/** A body as JSON: null when empty, undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
