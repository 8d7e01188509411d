import { Argument, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import {
  checkApiKey,
  checkBaseUrl,
  checkExportApi,
  checkProjectId,
  checkSettingKey,
} from '../../../config/validators.js';
import { resolveProfile } from '../../../config/resolve.js';
import { SETTING_KEYS, type SettingKey } from '../../../config/settings.js';
import { UsageError } from '../../../errors.js';
import { maskKey } from '../../../redact.js';
import { promptHidden, readAllStdin } from '../../secret-input.js';

export interface ConfigSetOptions {
  key: string;
  /** Omitted or "-" for api-key: read from stdin or a hidden prompt. */
  value: string | undefined;
}

export interface ConfigSetResult {
  profile: string;
  key: SettingKey;
  /** Masked for api-key. */
  value: string;
}

export async function configSet(opts: ConfigSetOptions, ctx: Context): Promise<ConfigSetResult> {
  const key = checkSettingKey(opts.key);
  const value = await valueToStore(key, opts.value, ctx);
  const store = await ctx.configStore();
  // Not ctx.settings(): that refuses a profile the file does not have yet, and setting is how one is made.
  const profile = resolveProfile(ctx.globals, ctx.env);
  await store.write(profile.value, key, value);
  return { profile: profile.value, key, value: key === 'api-key' ? maskKey(value) : value };
}

/** Checks the value before anything is written: a bad key must not replace a good one. */
async function valueToStore(key: SettingKey, given: string | undefined, ctx: Context): Promise<string> {
  if (key === 'api-key') {
    const fromArgv = given !== undefined && given !== '-';
    if (fromArgv)
      ctx.reporter.warn(
        'the key is now in your shell history; next time pipe it in: `mint-admin config set api-key < key.txt`',
      );
    const raw = fromArgv ? given : await readKey(ctx);
    const trimmed = raw.trim();
    if (trimmed === '')
      throw new UsageError(
        `no key ${!fromArgv && ctx.io.stdinIsTTY ? 'entered' : 'given on stdin'}; nothing was saved`,
      );
    return checkApiKey(trimmed, 'the key given');
  }
  if (given === undefined) throw new UsageError(`config set ${key} needs a value`);
  if (key === 'project-id') return checkProjectId(given.trim(), 'project-id');
  if (key === 'export-api') return checkExportApi(given, 'export-api');
  return checkBaseUrl(given.trim(), 'base-url');
}

function readKey(ctx: Context): Promise<string> {
  return ctx.io.stdinIsTTY ? promptHidden(ctx.io, 'Admin API key (input hidden): ') : readAllStdin(ctx.io);
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('set')
    .description('save a setting in the selected profile')
    .addArgument(new Argument('<key>', 'api-key | project-id | base-url | export-api').choices(SETTING_KEYS))
    .argument('[value]', 'the value; for api-key omit it (or use "-") to read stdin or a hidden prompt')
    .action(
      action(deps, async ([key, value], _opts, ctx) => {
        const result = await configSet({ key: key!, value }, ctx);
        if (ctx.mode.json) return printJson(ctx, result);
        ctx.reporter.info(`saved ${result.key} = ${result.value} in profile "${result.profile}"`);
      }),
    );
  examples(command, [
    'mint-admin config set api-key < key.txt',
    'mint-admin config set project-id 64f0c2a1b2c3',
    'mint-admin --profile staging config set base-url https://staging-api.example.com',
  ]);
}
