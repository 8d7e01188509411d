import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import { withSettings, type Context, type Deps } from '../../context.js';
import { checkApiKey } from '../../../config/validators.js';
import { ENV_VARS, type Settings } from '../../../config/settings.js';
import { resolveProfile, resolveSettings } from '../../../config/resolve.js';
import type { ConfigStore } from '../../../config/store.js';
import { UsageError } from '../../../errors.js';
import { InputTooLarge } from '../../input-limit.js';
import { maskKey } from '../../../redact.js';
import { promptHidden, readAllStdin } from '../../secret-input.js';
import { authStatus, type AuthCheck } from './status.js';

export interface AuthLoginOptions {
  /** Read the key from stdin (as `gh auth login --with-token` does) rather than prompt for it. */
  withToken?: boolean;
}

export interface AuthLoginResult {
  profile: string;
  /** Masked. */
  'api-key': string;
  check: AuthCheck;
}

/**
 * Reads a key, asks the API about it by the request `auth status` makes, and saves it only when the
 * API accepted it: a mistyped or revoked key must not replace a working one, as `config set` would.
 */
export async function authLogin(opts: AuthLoginOptions, ctx: Context): Promise<AuthLoginResult> {
  const store = await ctx.configStore();
  const profile = resolveProfile(ctx.globals, ctx.env);
  // Before the key is asked for: without a project the check has nothing to ask about.
  const current = resolveSettings(ctx.globals, ctx.env, profileToBe(store, profile.value));
  if (!current.projectId) {
    throw new UsageError(
      `auth login checks the key with a request about the project, and no project id is set: run \`mint-admin${profile.source === 'flag' ? ` --profile ${profile.value}` : ''} config set project-id <id>\` first (or pass --project, or set ${ENV_VARS['project-id']}); nothing was saved`,
    );
  }
  const key = checkApiKey(await readKey(opts, ctx), 'the key given');
  const settings: Settings = { ...current, apiKey: { value: key, source: 'flag' } };
  const { result, error } = await authStatus(withSettings(ctx, settings));
  if (result.check.accepted !== true)
    throw error ?? new Error(`the API did not accept the key (${result.check.request}); nothing was saved`);
  await store.write(profile.value, 'api-key', key);
  return { profile: profile.value, 'api-key': maskKey(key), check: result.check };
}

/** The store as it will be once this login saves to the profile: login, like `config set`, makes one. */
function profileToBe(store: ConfigStore, profile: string): ConfigStore {
  return { ...store, profiles: () => [...new Set([...store.profiles(), profile])] };
}

async function readKey(opts: AuthLoginOptions, ctx: Context): Promise<string> {
  if (!opts.withToken && !ctx.io.stdinIsTTY) {
    throw new UsageError(
      'stdin is not a terminal, so there is no prompt for the key: pipe it in with `mint-admin auth login --with-token < key.txt`; nothing was saved',
    );
  }
  const raw = opts.withToken ? await readStdin(ctx) : await promptHidden(ctx.io, 'Admin API key (input hidden): ');
  const key = raw.trim();
  if (key === '') throw new UsageError(`no key ${opts.withToken ? 'given on stdin' : 'entered'}; nothing was saved`);
  return key;
}

/** A key is short: a stdin that runs on (a file given by mistake, /dev/zero) is refused, not held. */
const MAX_KEY_BYTES = 64 * 1024;

function readStdin(ctx: Context): Promise<string> {
  return readAllStdin(ctx.io, MAX_KEY_BYTES).catch((error: unknown) => {
    if (error instanceof InputTooLarge)
      throw new UsageError('stdin holds more than 64 KiB, which is no admin key; nothing was saved');
    throw error;
  });
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('login')
    .description(
      'read the admin key (a hidden prompt, or stdin with --with-token), check it with the API, and save it to the profile only if the API accepts it',
    )
    .option('--with-token', 'read the key from stdin instead of a prompt (as gh does)')
    .action(
      action(deps, async (_args, opts: AuthLoginOptions, ctx) => {
        const result = await authLogin(opts, ctx);
        if (ctx.mode.json) printJson(ctx, result);
        else
          ctx.reporter.info(
            `the API accepted the key (${result.check.request} answered ${result.check.status}); saved api-key = ${result['api-key']} in profile "${result.profile}"`,
          );
        const fromEnv = ctx.env[ENV_VARS['api-key']];
        if (fromEnv)
          ctx.reporter.warn(
            `${ENV_VARS['api-key']} is set and takes precedence over the saved key while it is; unset it to use the saved one`,
          );
      }),
    );
  examples(command, [
    'mint-admin auth login',
    'mint-admin auth login --with-token < key.txt',
    'mint-admin --profile staging auth login --with-token < staging-key.txt',
  ]);
}
