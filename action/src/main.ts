// The GitHub Action face: inputs -> the CLI run in-process (src/cli/run.ts) with the key, project and base
// URL in its environment -> step outputs, a step summary and, on a pull request, one sticky comment.
// The key is masked (::add-mask::) before anything else runs and is handed to the CLI as a secret, so
// the CLI masks it in everything it writes too.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as core from '@actions/core';
import * as github from '@actions/github';
import { systemClock } from '../../src/clock.js';
import type { RunFailure } from '../../src/cli/context.js';
import { InterruptedError } from '../../src/errors.js';
import { exitCodeWords } from '../../src/cli/exit-codes-help.js';
import { scrubSecrets } from '../../src/redact.js';
import { runCli } from '../../src/cli/run.js';
import { CommandLineError, parseCommandLine } from './command-line.js';
import { commentMarker, pullRequestOf, upsertComment } from './comment.js';
import { failureText } from './failure.js';
import { ACTION_OUTPUTS, parseOutputFile, wantsGithubOutput } from './outputs.js';

async function main(): Promise<void> {
  // The key from the input, or from the step's env when the input is empty: masked either way.
  const apiKey = core.getInput('api-key') || process.env.MINTLIFY_ADMIN_API_KEY || '';
  if (apiKey) core.setSecret(apiKey);
  const githubToken = core.getInput('github-token');
  if (githubToken) core.setSecret(githubToken);
  const secrets = [apiKey, githubToken].filter(Boolean);
  const scrub = (text: string) => scrubSecrets(text, secrets);

  // Every input is checked before the command runs: a bad one is exit 2 with nothing sent.
  let argv: string[];
  let wantsComment: boolean;
  try {
    const command = core.getInput('command');
    if (!command.trim())
      throw new CommandLineError(
        'the `command` input is empty: give a mint-admin command line, e.g. `preview start my-branch --wait`',
      );
    argv = parseCommandLine(command);
    wantsComment = booleanInput('comment');
  } catch (error) {
    if (!(error instanceof CommandLineError)) throw error;
    core.setOutput('exit-code', '2');
    core.setFailed(scrub(error.message));
    process.exitCode = 2;
    return;
  }
  if (wantsGithubOutput(argv)) argv.push('--github-output');

  const scratch = mkdtempSync(join(tmpdir(), 'mint-admin-action-'));
  const outputFile = join(scratch, 'output');
  writeFileSync(outputFile, '', { mode: 0o600 });
  // Why the command failed, from its error itself rather than from the text it printed.
  let failure: RunFailure | undefined;
  const code = await runCli(argv, {
    io: passThroughIO(),
    env: cliEnv(apiKey, outputFile),
    clock: systemClock,
    signal: stopSignal(),
    random: Math.random,
    secrets: new Set(apiKey ? [apiKey] : []),
    onFailure: (given) => (failure = given),
  });
  const yielded = parseOutputFile(readFileSync(outputFile, 'utf8'));
  rmSync(scratch, { recursive: true, force: true });

  yielded.set('exit-code', String(code));
  for (const name of ACTION_OUTPUTS) {
    const value = yielded.get(name);
    if (value !== undefined) core.setOutput(name, scrub(value));
  }

  const why =
    code === 0
      ? undefined
      : failureText(failure, code, { apiKey: apiKey !== '', apiKeyFromInput: core.getInput('api-key') !== '' });
  const body = resultText(argv, code, yielded, why, scrub);
  let summarise = !yielded.has('status-id');
  if (wantsComment) summarise = (await comment(githubToken, body)) || summarise;
  // The build commands wrote their own summary; the others get this one (and so does a refused comment).
  if (summarise && process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(body, true).write();

  if (why !== undefined) {
    core.setFailed(scrub(`${why} (exit code ${code})`));
    process.exitCode = code;
  }
}

/** `true` or `false` (any case), or empty for false; anything else is a usage error. */
function booleanInput(name: string): boolean {
  const value = core.getInput(name).toLowerCase();
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new CommandLineError(`the \`${name}\` input is ${JSON.stringify(core.getInput(name))}: use true or false`);
}

/** Posts or updates the comment; true when it could not, so the summary carries the result instead. */
async function comment(token: string, body: string): Promise<boolean> {
  const target = pullRequestOf(github.context);
  if (!target) {
    core.info('mint-admin: comment: true, but this event is not about a pull request; no comment');
    return false;
  }
  if (!token) {
    core.warning('mint-admin: comment: true needs github-token; the result is in the step summary');
    return true;
  }
  const marker = commentMarker(process.env.GITHUB_WORKFLOW ?? '', process.env.GITHUB_JOB ?? '');
  const result = await upsertComment(github.getOctokit(token), target, marker, body, core);
  return result === 'not-posted';
}

/** Markdown for the comment and the summary: the preview link, build state or the agent's pull request. */
function resultText(
  argv: string[],
  code: number,
  outputs: Map<string, string>,
  why: string | undefined,
  scrub: (t: string) => string,
): string {
  const value = (name: string) => {
    const v = outputs.get(name);
    return v === undefined || v === '' ? undefined : codeSpan(scrub(v));
  };
  const failed = `failed: ${exitCodeWords(code) ?? 'an unknown exit code'} (exit code ${code})`;
  const lines = [`### mint-admin ${codeSpan(scrub(argv.slice(0, 2).join(' ')))}: ${code === 0 ? 'done' : failed}`, ''];
  if (why !== undefined) lines.push(`- Error: ${codeSpan(scrub(why))}`);
  const status = value('status');
  if (status) lines.push(`- Status: **${status}**`);
  const url = outputs.get('preview-url');
  if (url && /^https:\/\/[^\s<>"'`|\\()[\]@]+$/.test(url) && scrub(url) === url) lines.push(`- Preview: ${url}`);
  const pr = outputs.get('pr-link');
  if (pr && /^https:\/\/[^\s<>"'`|\\()[\]@]+$/.test(pr) && scrub(pr) === pr) lines.push(`- Pull request: ${pr}`);
  for (const name of ['status-id', 'job-id', 'directory']) {
    const v = value(name);
    if (v) lines.push(`- ${name}: ${v}`);
  }
  // Scrubbed whole as well: a line added here later is masked without having to remember to.
  return scrub(`${lines.join('\n')}\n`);
}

/**
 * Server or user text as a Markdown code span: shown as is (no Markdown, HTML or @-mention inside
 * one; GitHub decodes no entity there either, so nothing is escaped), one line, cut short. The fence
 * is one backtick longer than any run inside, so no backtick in the text can close it.
 */
function codeSpan(text: string): string {
  const flat = text.replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]+/g, ' ').slice(0, 200);
  const fence = '`'.repeat(Math.max(0, ...(flat.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  // Padded when the text starts or ends with a backtick (or is only spaces): CommonMark strips one space each side.
  const pad = /^`|`$|^ *$/.test(flat) || fence.length > 1 ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/** The runner's environment, without the action's inputs, plus the settings the inputs give. */
function cliEnv(apiKey: string, outputFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('INPUT_')) env[name] = value;
  if (apiKey) env.MINTLIFY_ADMIN_API_KEY = apiKey;
  const projectId = core.getInput('project-id');
  if (projectId) env.MINTLIFY_PROJECT_ID = projectId;
  const baseUrl = core.getInput('base-url');
  if (baseUrl) env.MINTLIFY_API_URL = baseUrl;
  // The CLI's outputs go to a private file the action reads back and re-sets through @actions/core.
  env.GITHUB_OUTPUT = outputFile;
  return env;
}

function passThroughIO() {
  const through = (stream: NodeJS.WriteStream) =>
    new Writable({
      write(chunk, _encoding, done) {
        stream.write(chunk, done);
      },
    });
  return {
    stdout: through(process.stdout),
    stderr: through(process.stderr),
    // Touched only by a command that reads stdin (`agent run -f -`): a stdin stream made for nothing
    // could hold the step open.
    get stdin() {
      return process.stdin;
    },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: undefined,
  };
}

/** A cancelled workflow sends SIGINT, then SIGTERM: either stops the command the CLI's way. */
function stopSignal(): AbortSignal {
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort(new InterruptedError('interrupted', 'SIGINT')));
  process.once('SIGTERM', () => controller.abort(new InterruptedError('interrupted', 'SIGTERM')));
  return controller.signal;
}

main().catch((error: unknown) => {
  const secrets = [core.getInput('api-key'), core.getInput('github-token')].filter(Boolean);
  core.setFailed(scrubSecrets(error instanceof Error ? error.message : String(error), secrets));
});
