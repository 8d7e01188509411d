import { Argument, type Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { SETTING_KEYS, type SettingKey } from '../../../config/settings.js';
import { checkProfileExists, resolveProfile } from '../../../config/resolve.js';
import { checkSettingKey } from '../../../config/validators.js';

export interface ConfigUnsetResult {
  profile: string;
  key: SettingKey;
  removed: boolean;
}

export async function configUnset(opts: { key: string }, ctx: Context): Promise<ConfigUnsetResult> {
  const key = checkSettingKey(opts.key);
  const selected = resolveProfile(ctx.globals, ctx.env);
  const store = await ctx.configStore();
  checkProfileExists(selected, store);
  const profile = selected.value;
  const removed = await store.remove(profile, key);
  return { profile, key, removed };
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('unset')
    .description('remove a setting from the selected profile')
    .addArgument(new Argument('<key>', 'api-key | project-id | base-url | export-api').choices(SETTING_KEYS))
    .action(
      action(deps, async ([key], _opts, ctx) => {
        const result = await configUnset({ key: key! }, ctx);
        if (ctx.mode.json) return printJson(ctx, result);
        ctx.reporter.info(
          result.removed
            ? `removed ${result.key} from profile "${result.profile}"`
            : `${result.key} was not set in profile "${result.profile}"; nothing changed`,
        );
      }),
    );
  examples(command, ['mint-admin config unset api-key', 'mint-admin --profile staging config unset base-url']);
}
