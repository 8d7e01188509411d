// Secrets must never reach output, logs or errors: the admin key and presigned URL signatures.

const SIGNED_QUERY_PARAMS = /^(x-amz-signature|x-amz-credential|x-amz-security-token|signature|sig|token|x-goog-signature|x-goog-credential)$/i;

/** The URL with presigned-signature query values replaced, for logs and errors. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  for (const name of [...parsed.searchParams.keys()]) {
    if (SIGNED_QUERY_PARAMS.test(name)) parsed.searchParams.set(name, 'REDACTED');
  }
  if (parsed.password) parsed.password = 'REDACTED';
  return parsed.toString();
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
