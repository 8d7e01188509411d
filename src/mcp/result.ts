// What a client receives from a tool, made at one place for every tool: the tools bound what they know
// to be reader text (untrusted.ts), but any field of an API answer (ids, cursors, timestamps, extra keys
// the schemas let through, a branch name a contributor chose) can be long or hostile too. So every
// string and key of a result is scrubbed of secrets, flattened to one line with control and bidi
// characters neutralised, and cut, before the JSON is made; a result still too big is refused whole,
// never cut in the middle of its JSON. An error is one bounded line and its `Next step:` line.
import { safeText, type ToolFailure } from './errors.js';
import { readerText } from './untrusted.js';

/** The most characters of one result. */
export const MAX_RESULT_CHARS = 50_000;
/** The most characters of any one string in a result (reader text is cut shorter, by its tool). */
export const MAX_FIELD_CHARS = 1000;
const MAX_KEY_CHARS = 100;

/** One string as bounded one-line text; scrubbed before it is cut, so no key is cut past recognition. */
export function boundedText(text: string, secrets: Array<string | undefined>, max = MAX_FIELD_CHARS): string {
  // Only a bounded prefix is looked at: a value of megabytes costs no more than a short one.
  const head = text.length > max * 4 ? text.slice(0, max * 4) : text;
  const shown = readerText(safeText(head, secrets), max) ?? '';
  if (head.length === text.length || shown.endsWith('…')) return shown;
  return `${Array.from(shown)
    .slice(0, max - 1)
    .join('')}…`;
}

function boundedValue(value: unknown, secrets: Array<string | undefined>): unknown {
  if (typeof value === 'string') return boundedText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => boundedValue(item, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value))
      out[boundedText(key, secrets, MAX_KEY_CHARS)] = boundedValue(item, secrets);
    return out;
  }
  return value;
}

export interface ToolText {
  isError?: true;
  text: string;
}

/** A failure as one bounded line of what went wrong, and one of what to do next. */
export function failureText(failure: ToolFailure, secrets: Array<string | undefined>): ToolText {
  return {
    isError: true,
    text: `${boundedText(failure.message, secrets)}\nNext step: ${boundedText(failure.next, secrets)}`,
  };
}

/** A tool's data as one compact JSON text within MAX_RESULT_CHARS, or an error that says it was too big. */
export function resultText(toolName: string, data: unknown, secrets: Array<string | undefined>): ToolText {
  // Compact JSON: an agent reads it as well as indented JSON, in far fewer characters of its
  // context, and V8 writes it on its fast path (indenting takes a slower one).
  // safeText once more on the whole: a link or key can only have been made safer by the cut.
  const text = safeText(JSON.stringify(boundedValue(data, secrets)) ?? 'null', secrets);
  if (text.length <= MAX_RESULT_CHARS) return { text };
  return failureText(
    {
      message: `the result of ${toolName} was ${text.length} characters, more than the ${MAX_RESULT_CHARS} one result may hold: none of it is shown`,
      next: 'ask for less: a smaller limit, a narrower date range or query',
    },
    secrets,
  );
}
