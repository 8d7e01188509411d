import { Argument, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { SETTING_KEYS, type Setting, type SettingKey } from '../../../config/settings.js';
import { checkSettingKey } from '../../../config/validators.js';
import { describeSource } from '../../../config/resolve.js';
import { ConfigError } from '../../../errors.js';
import { maskKey, redactUrl } from '../../../redact.js';

export interface ConfigGetResult {
  key: SettingKey;
  value: string;
  source: string;
}

/** The effective value, wherever it comes from (flag, environment, profile, default). */
export async function configGet(opts: { key: string }, ctx: Context): Promise<ConfigGetResult> {
  const key = checkSettingKey(opts.key);
  const settings = await ctx.settings();
  const setting: Setting | undefined =
    key === 'api-key'
      ? settings.apiKey
      : key === 'project-id'
        ? settings.projectId
        : key === 'export-api'
          ? settings.exportApi
          : settings.baseUrl;
  if (!setting) {
    throw new ConfigError(
      `${key} is not set in profile "${settings.profile.value}"; set it with \`mint-admin config set ${key}\``,
    );
  }
  return {
    key,
    // Shown as `config list` and `auth status` show it: a base URL's password and token redacted.
    value: key === 'api-key' ? maskKey(setting.value) : key === 'base-url' ? redactUrl(setting.value) : setting.value,
    source: describeSource(key, setting),
  };
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('get')
    .description('print the effective value of a setting (the API key masked)')
    .addArgument(new Argument('<key>', 'api-key | project-id | base-url | export-api').choices(SETTING_KEYS))
    .action(
      action(deps, async ([key], _opts, ctx) => {
        const result = await configGet({ key: key! }, ctx);
        if (ctx.mode.json) return printJson(ctx, result);
        ctx.io.stdout.write(`${result.value}\n`);
      }),
    );
  examples(command, ['mint-admin config get project-id', 'mint-admin config get api-key']);
}
