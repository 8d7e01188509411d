import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { ApiError, type CliError, NetworkError } from '../../../errors.js';
import { listSettings, settingRows, type ListedSetting } from '../settings-table.js';

/**
 * The check asks for an agent job by an id of the API's shape (24 hex digits, as its job ids are)
 * that no job is ever given. Reading an agent job spends no limited budget: the analytics endpoints
 * share 100 requests an hour and would be the wrong thing to spend, the agent's limit is on starting
 * jobs, and a GET starts nothing. Its documented answers are 200 and 404, so 404 is an answer from
 * behind authentication, but only in the API's own JSON: any web server answers 404 to a path it lacks.
 */
export const PROBE_JOB_ID = '000000000000000000000000';

const PROVES_ACCEPTED =
  'the API knows this admin key: it answered a request made with it past authentication (401 would have said otherwise)';
const PROVES_REFUSED =
  '401: the API does not know this key (revoked, mistyped, or another kind of key); 403: it knows the key but will not let it read this project';
export const NOT_PROVEN = [
  'that the project id is right: a 404 for a job does not say whether the API has the project',
  'what the plan allows: static export, previews and automations answer 403 or 402 only when used',
  'how much of a rate limit is left (analytics: 100 requests per organization per hour, shared)',
];

export interface AuthCheck {
  /** The request sent, or that would have been. */
  request: string;
  /** The HTTP status, or null when no answer came (nothing sent, or the network failed). */
  status: number | null;
  /** true: the key is accepted; false: refused (401/403); null: not known. */
  accepted: boolean | null;
  /** The API's own words, when it gave some. */
  answer: string | null;
  proves: string | null;
  notProven: string[];
}

export type AuthStatusResult = Record<'profile' | 'api-key' | 'project-id' | 'base-url', ListedSetting> & {
  check: AuthCheck;
};

/** The report, and the error that sets the exit code when the key was not accepted. */
export async function authStatus(ctx: Context): Promise<{ result: AuthStatusResult; error?: CliError | Error }> {
  const settings = await ctx.settings();
  const request = `GET /v2/agent/${settings.projectId?.value ?? '{projectId}'}/job/${PROBE_JOB_ID}`;
  const report = (check: Omit<AuthCheck, 'request'>): AuthStatusResult => ({
    ...listSettings(settings, ['profile', 'api-key', 'project-id', 'base-url']),
    check: { request, ...check },
  });
  try {
    const api = await ctx.api();
    const projectId = await ctx.projectId();
    await api.getAgentJob(projectId, PROBE_JOB_ID);
    return {
      result: report({ status: 200, accepted: true, answer: null, proves: PROVES_ACCEPTED, notProven: NOT_PROVEN }),
    };
  } catch (error) {
    if (!(error instanceof Error)) throw error;
    if (error instanceof ApiError && error.status === 404 && error.fromApi) {
      return {
        result: report({
          status: 404,
          accepted: true,
          answer: error.serverMessage ?? null,
          proves: PROVES_ACCEPTED,
          notProven: NOT_PROVEN,
        }),
      };
    }
    if (error instanceof ApiError && error.status === 404) {
      const notChecked = new ApiError(
        `${request} answered 404 without the API's JSON error, so the key could not be checked; check --base-url`,
        404,
        { code: 'unexpected_answer' },
      );
      return {
        result: report({
          status: 404,
          accepted: null,
          answer: error.serverMessage ?? null,
          proves: null,
          notProven: [],
        }),
        error: notChecked,
      };
    }
    if (error instanceof ApiError) {
      const refused = error.status === 401 || error.status === 403;
      return {
        result: report({
          status: error.status,
          accepted: refused ? false : null,
          answer: error.serverMessage ?? null,
          proves: refused ? PROVES_REFUSED : null,
          notProven: [],
        }),
        error,
      };
    }
    return { result: report({ status: null, accepted: null, answer: null, proves: null, notProven: [] }), error };
  }
}

export function formatAuthStatus(result: AuthStatusResult, error: unknown): string[] {
  const { check, ...settings } = result;
  const lines = settingRows(settings);
  lines.push('');
  if (check.accepted === true)
    lines.push(`key accepted: ${check.request} answered ${check.status}, so the API knows this key`);
  else if (check.accepted === false) lines.push(`key refused: ${check.request} answered ${check.status}`);
  else if (check.status === 404)
    lines.push(
      `key not checked: ${check.request} answered 404, but not with the API's JSON error (is the base URL the API's?)`,
    );
  else if (check.status !== null)
    lines.push(`key not known: ${check.request} answered ${check.status}, which says neither way`);
  else lines.push(`key not checked: ${error instanceof NetworkError ? 'no answer from the API' : 'nothing was sent'}`);
  if (check.answer) lines.push(`the API said: ${check.answer}`);
  if (check.notProven.length > 0) lines.push('not proven:', ...check.notProven.map((n) => `  - ${n}`));
  return lines;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('status')
    .description(
      'show the key (masked), project and base URL in effect and where each comes from, and whether the API accepts the key (a request that spends no rate limit)',
    )
    .action(
      action(deps, async (_args, _opts, ctx) => {
        const { result, error } = await authStatus(ctx);
        if (ctx.mode.json) printJson(ctx, result);
        else for (const line of formatAuthStatus(result, error)) ctx.print(line);
        if (error) throw error;
      }),
    );
  examples(command, ['mint-admin auth status', 'mint-admin --profile staging auth status --json']);
}
