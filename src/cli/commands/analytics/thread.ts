// `analytics thread <threadId>`: one assistant conversation as it happened, message by message,
// readable on a terminal; `--json` prints the API's object. A thread id that does not exist is the
// API's 404 (exit 1) with what to check.
import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import type { Thread } from '../../../api/types.js';
import { answerOf, ApiError } from '../../../errors.js';
import { checkId } from '../../../ids.js';

export async function showThread(threadId: string, ctx: Context): Promise<Thread> {
  const id = checkId('thread id', threadId, 'take one from the id column of `mint-admin analytics conversations`');
  const projectId = await ctx.projectId();
  const api = await ctx.api();
  try {
    return await api.getThread(projectId, id);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      throw new ApiError(
        `no assistant thread ${id} in this project (404); take the id from \`mint-admin analytics conversations\` and check --project`,
        404,
        answerOf(error),
        { cause: error, nextStepSaid: true },
      );
    }
    throw error;
  } finally {
    ctx.debug('analytics requests used: 1 (the organization shares 100 an hour)');
  }
}

/** The thread for a person: a heading, then each message under who sent it and when. */
export function threadLines(thread: Thread): string[] {
  const lines = [
    `Thread ${thread.threadId}, started ${thread.createdAt}, ${thread.messages.length} ${thread.messages.length === 1 ? 'message' : 'messages'}`,
  ];
  for (const message of thread.messages) {
    lines.push(
      '',
      `${message.role === 'user' ? 'Reader' : message.role === 'assistant' ? 'Assistant' : message.role} (${message.createdAt}):`,
    );
    // Line by line: a message can hold more lines than push(...) can take arguments.
    for (const line of message.content.split(/\r?\n/)) lines.push(`  ${line}`);
  }
  return lines;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('thread')
    .description('one assistant conversation, message by message (--json: the object)')
    .argument('<threadId>', 'the conversation id (the id column of `analytics conversations`)')
    .action(
      action(deps, async ([threadId], _flags, ctx) => {
        const thread = await showThread(threadId ?? '', ctx);
        if (ctx.mode.json) printJson(ctx, thread);
        else for (const line of threadLines(thread)) ctx.print(line);
      }),
    );
  examples(command, [
    'mint-admin analytics thread 01JD8ZK2Q4W5X6Y7Z8A9B0C1D2',
    'mint-admin analytics thread 01JD8ZK2Q4W5X6Y7Z8A9B0C1D2 --json',
  ]);
}
