// Secrets must never reach output, logs or errors: the admin key and presigned URL signatures.

const SIGNED_QUERY_PARAMS =
  /^(x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token|x-goog-signature|x-goog-credential)$/i;

/**
 * The URL with presigned-signature query values and a password replaced, for logs and errors; as
 * given when there is nothing to replace, so a setting is shown the way it was typed.
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let redacted = false;
  for (const name of [...parsed.searchParams.keys()]) {
    if (SIGNED_QUERY_PARAMS.test(name)) {
      parsed.searchParams.set(name, 'REDACTED');
      redacted = true;
    }
  }
  if (parsed.password) {
    parsed.password = 'REDACTED';
    redacted = true;
  }
  return redacted ? parsed.toString() : url;
}

/** `mint_****wxyz`: enough to tell two keys apart, never enough to use one. */
export function maskKey(key: string): string {
  const prefixEnd = key.startsWith('mint_') ? 'mint_'.length : 0;
  const tail = key.length - prefixEnd >= 12 ? key.slice(-4) : '';
  return `${key.slice(0, prefixEnd)}****${tail}`;
}

/**
 * What may stand between two characters of a key in text that reached a reader: a line break the
 * server wrapped it with, spaces or a tab a flattening made of one, an invisible format character,
 * or the escape JSON, a terminal or Markdown writes for one (`\n`, `\x00`, `\u200b`, `\_`).
 * Scrubbing across them makes the order of flattening, escaping and scrubbing not matter.
 */
const BETWEEN = String.raw`(?:[\s\p{Cc}\p{Cf}]|\\(?:[nrtbfv0]|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|u\{[0-9a-fA-F]{1,6}\})?)*`;
const patterns = new Map<string, RegExp>();

/** The key as it may appear in text: any case (keys are case-sensitive, readers are not), split as above. */
function secretPattern(secret: string): RegExp {
  let pattern = patterns.get(secret);
  if (!pattern) {
    const chars = Array.from(secret, (ch) => ch.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
    pattern = new RegExp(chars.join(BETWEEN), 'giu');
    // A process holds a key or two; a caller that passes new ones each time must not grow this forever.
    if (patterns.size >= 16) patterns.clear();
    patterns.set(secret, pattern);
  }
  return pattern;
}

/**
 * Masks every occurrence of each secret in a piece of text (a server message, a debug line, a whole
 * output): in any case, and across the line breaks, spaces and escapes a wrap or a flattening puts in it.
 */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) out = out.replace(secretPattern(secret), () => maskKey(secret));
  }
  return out;
}
