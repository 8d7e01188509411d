// The exit codes in words: `mint-admin help exit-codes` lists them (cli.md's table, which scripts and
// CI depend on), and the action names a failure by them. One table, so the two never disagree.
import { EXIT_CODES, type ExitCode } from './cli-errors.js';

/** Each code: a few words for a headline, and what it means in full. */
const MEANINGS: Record<ExitCode, { words: string; meaning: string }> = {
  [EXIT_CODES.ok]: { words: 'success', meaning: 'success' },
  [EXIT_CODES.api]: {
    words: 'API or network error',
    meaning: 'API or network error (after retries), or an unexpected failure',
  },
  [EXIT_CODES.usage]: { words: 'usage error', meaning: 'usage error or invalid input; nothing was sent' },
  [EXIT_CODES.auth]: {
    words: 'authentication failed',
    meaning: 'authentication or permission: no key, a malformed key, 401, 403',
  },
  [EXIT_CODES.jobFailed]: {
    words: 'the job failed',
    meaning: 'a job or build ended in failure, or `export verify` found problems',
  },
  [EXIT_CODES.timeout]: {
    words: 'timed out',
    meaning: 'timed out waiting (`--timeout`); the message says how to resume',
  },
  [EXIT_CODES.rateLimited]: { words: 'rate limited', meaning: 'rate limited (429) past what the CLI waits out' },
  [EXIT_CODES.hungUp]: { words: 'hung up', meaning: 'hung up (SIGHUP): the same clean-up as Ctrl-C' },
  [EXIT_CODES.interrupted]: {
    words: 'interrupted',
    meaning: 'interrupted (Ctrl-C): partial downloads removed, jobs go on on the server',
  },
  [EXIT_CODES.terminated]: { words: 'terminated', meaning: 'terminated (SIGTERM): the same clean-up as Ctrl-C' },
};

/** A few words for an exit code, e.g. "the job failed"; undefined for a code mint-admin does not use. */
export function exitCodeWords(code: number): string | undefined {
  return MEANINGS[code as ExitCode]?.words;
}

/** One line a code, `  4    a job or build ended in failure, ...`: in `help exit-codes` and `--help`. */
export function exitCodeRows(): string[] {
  const codes = Object.keys(MEANINGS)
    .map(Number)
    .sort((a, b) => a - b);
  return codes.map((code) => `  ${String(code).padEnd(5)}${MEANINGS[code as ExitCode].meaning}`);
}

/** The text of `mint-admin help exit-codes`. */
export function exitCodesHelp(): string {
  return `Exit codes, for every command and the action's \`exit-code\` output:\n\n${exitCodeRows().join('\n')}\n`;
}
