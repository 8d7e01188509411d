// The retry pause, on its own: the polling loop (src/wait.ts) needs it without http.ts, whose undici
// import would load the HTTP client (and tls, http2, crypto) before a request is ever sent: an MCP
// server answering `initialize` has no use for it yet.

/** Exponential backoff with full jitter: attempt 1 waits up to base, 2 up to 2x base, ... capped. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
