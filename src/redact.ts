// Secrets must never reach output, logs or errors: the admin key and presigned URL signatures.

const SIGNED_QUERY_PARAMS = /^(x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token|x-goog-signature|x-goog-credential)$/i;

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

/** Removes every occurrence of each secret from a piece of text (a server message, a debug line). */
export function scrubSecrets(text: string, secrets: Array<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 8) out = out.split(secret).join(maskKey(secret));
  }
  return out;
}
