// The input every agent command checks before anything is sent: the prompt (from the arguments, a
// file or stdin) and job ids that go into URL paths.
import type { Context } from '../../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { checkId } from '../../ids.js';
import { readAllStdin } from '../../secret-input.js';

export interface PromptSource {
  /** The positional words; joined by spaces. */
  words: string[];
  /** -f/--file: a path, or "-" for stdin. */
  file?: string | undefined;
}

const HOW_TO_GIVE = 'give it as arguments (mint-admin agent run "Document the /v2/users endpoint") or with -f <file> ("-" reads stdin)';

/** The prompt, trimmed; a UsageError when it is missing, blank, or given twice. */
export async function readPrompt(source: PromptSource, ctx: Context): Promise<string> {
  if (source.file !== undefined && source.words.length > 0) {
    throw new UsageError('give the prompt either as arguments or with --file, not both; nothing was sent');
  }
  if (source.file === undefined) {
    const prompt = source.words.join(' ').trim();
    if (prompt === '') throw new UsageError(`the prompt is empty: ${HOW_TO_GIVE}`);
    return prompt;
  }
  const fromStdin = source.file === '-';
  const prompt = (fromStdin ? await readStdin(ctx) : await readPromptFile(source.file)).trim();
  if (prompt === '') {
    throw new UsageError(fromStdin ? 'the prompt read from stdin is empty; nothing was sent' : `the prompt file "${source.file}" is empty; nothing was sent`);
  }
  return prompt;
}

function readStdin(ctx: Context): Promise<string> {
  // On a terminal the read waits for end-of-input; say so rather than seem to hang.
  if (ctx.io.stdinIsTTY) ctx.reporter.info('reading the prompt from stdin; end it with Ctrl-D');
  // A read of stdin does not notice Ctrl-C by itself; without this the first one would do nothing.
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError('cancelled; nothing was sent'));
    if (ctx.signal.aborted) return onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    readAllStdin(ctx.io)
      .then(resolve, reject)
      .finally(() => ctx.signal.removeEventListener('abort', onAbort));
  });
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
};

async function readPromptFile(path: string): Promise<string> {
  // Loaded here so the bundled start-up (--help, --version) does not pay for it.
  const { readFile } = await import('node:fs/promises');
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = FILE_ERRORS[code] ?? (code || String(error));
    throw new UsageError(`cannot read the prompt file "${path}" (${reason}); nothing was sent`);
  }
}

/** Job ids go into URL paths: checked like every id (src/ids.ts) before anything is sent. */
export function checkJobId(id: string | undefined): string {
  return checkId('job id', id, 'pass the id `mint-admin agent run` printed');
}
