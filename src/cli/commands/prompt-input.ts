// The prompt a command sends (agent run, agent message, autopilot run): from the arguments, a file or
// stdin, checked before anything is sent. Shared by the groups that send a prompt, so it lives beside them.
import type { Context } from '../context.js';
import { InterruptedError, UsageError } from '../../errors.js';
import { InputTooLarge, readFileBounded } from '../input-limit.js';
import { readAllStdin } from '../secret-input.js';

/** The most a prompt may hold: an instruction, not a corpus (and /dev/zero never ends). */
const MAX_PROMPT_BYTES = 1024 * 1024;

export interface PromptSource {
  /** The positional words; joined by spaces. */
  words: string[];
  /** -f/--file: a path, or "-" for stdin. */
  file?: string | undefined;
}

/**
 * The prompt, trimmed; a UsageError when it is missing, blank, or given twice. `example` is the
 * command line shown when it is missing, e.g. `mint-admin agent run "Document the /v2/users endpoint"`.
 */
export async function readPrompt(source: PromptSource, example: string, ctx: Context): Promise<string> {
  if (source.file !== undefined && source.words.length > 0) {
    throw new UsageError('give the prompt either as arguments or with --file, not both; nothing was sent');
  }
  if (source.file === undefined) {
    const prompt = source.words.join(' ').trim();
    if (prompt === '')
      throw new UsageError(
        `the prompt is empty: give it as arguments (${example}) or with -f <file> ("-" reads stdin)`,
      );
    return prompt;
  }
  const fromStdin = source.file === '-';
  const read = fromStdin ? readStdin(ctx) : readPromptFile(source.file, ctx);
  const prompt = (
    await read.catch((error: unknown) => {
      if (!(error instanceof InputTooLarge)) throw error;
      throw new UsageError(
        `${fromStdin ? 'the prompt read from stdin' : `the prompt file "${source.file}"`} holds more than 1 MiB; give a shorter prompt; nothing was sent`,
      );
    })
  ).trim();
  if (prompt === '') {
    throw new UsageError(
      fromStdin
        ? 'the prompt read from stdin is empty; nothing was sent'
        : `the prompt file "${source.file}" is empty; nothing was sent`,
    );
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
    readAllStdin(ctx.io, MAX_PROMPT_BYTES)
      .then(resolve, reject)
      .finally(() => ctx.signal.removeEventListener('abort', onAbort));
  });
}

const FILE_ERRORS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'it is a directory',
};

async function readPromptFile(path: string, ctx: Context): Promise<string> {
  // Loaded here so the bundled start-up (--help, --version) does not pay for it.
  const { stat } = await import('node:fs/promises');
  try {
    // A FIFO waits for its writer, and Ctrl-C must end that wait (src/cli/input-fifo.ts).
    if ((await stat(path)).isFIFO()) {
      const { readFifo } = await import('../input-fifo.js');
      const waiting = () => ctx.reporter.info(`reading the prompt from ${path}; waiting for a writer`);
      return await readFifo(path, ctx.signal, waiting, MAX_PROMPT_BYTES).catch((error: unknown) => {
        throw ctx.signal.aborted ? new InterruptedError('cancelled; nothing was sent') : error;
      });
    }
    return await readFileBounded(path, MAX_PROMPT_BYTES);
  } catch (error) {
    if (error instanceof InterruptedError || error instanceof InputTooLarge) throw error;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const reason = FILE_ERRORS[code] ?? (code || String(error));
    throw new UsageError(`cannot read the prompt file "${path}" (${reason}); nothing was sent`);
  }
}
