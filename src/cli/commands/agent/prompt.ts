// The input every agent command checks before anything is sent: the prompt (src/cli/commands/prompt-input.ts)
// and job ids that go into URL paths.
import type { Context } from '../../context.js';
import { checkId } from '../../../ids.js';
import { readPrompt as readAnyPrompt, type PromptSource } from '../prompt-input.js';

export type { PromptSource };

/** The prompt, trimmed; a UsageError when it is missing, blank, or given twice. */
export function readPrompt(source: PromptSource, ctx: Context): Promise<string> {
  return readAnyPrompt(source, 'mint-admin agent run "Document the /v2/users endpoint"', ctx);
}

/** Job ids go into URL paths: checked like every id (src/ids.ts) before anything is sent. */
export function checkJobId(id: string | undefined): string {
  return checkId('job id', id, 'pass the id `mint-admin agent run` printed');
}
