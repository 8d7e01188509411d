// How long work reports on itself, as the engine sees it: each face gives its own (the CLI a spinner
// or plain lines on stderr, the MCP server progress notifications, the library nothing or the caller's).
/** A long-running step: a spinner on a terminal, plain throttled lines elsewhere, nothing with --quiet. */
export interface Activity {
  /** New text. `milestone` lines (a status change) always print in plain mode; others are throttled. */
  update(text: string, opts?: { milestone?: boolean }): void;
  succeed(text: string): void;
  fail(text: string): void;
  /** Stops without a final line (the caller prints its own outcome). */
  stop(): void;
}

export interface Reporter {
  /** A hint or status line on stderr; silent with --quiet. */
  info(message: string): void;
  /** A warning on stderr; printed even with --quiet because it changes what the user should do. */
  warn(message: string): void;
  activity(text: string): Promise<Activity>;
  /** True when progress is drawn live (spinner, bar), false for plain lines. */
  readonly live: boolean;
}
