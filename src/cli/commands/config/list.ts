import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import { refuseExtras } from '../../../config/validators.js';
import { settingOrigin } from '../../../config/resolve.js';
import type { Context, Deps } from '../../context.js';
import { listSettings, settingRows, type ListedSetting, type SettingKey } from '../settings-table.js';

export type ConfigListResult = Record<SettingKey, ListedSetting>;

export async function configList(ctx: Context): Promise<ConfigListResult> {
  const settings = await ctx.settings();
  // Refused here as every command that sends refuses it, so no setting passes for fine in a listing.
  refuseExtras(settings.baseUrl.value, settingOrigin('base-url', settings.baseUrl, settings.profile.value));
  return listSettings(settings, ['profile', 'api-key', 'project-id', 'base-url', 'export-api']);
}

export function formatConfigList(result: ConfigListResult): string {
  return `${settingRows(result).join('\n')}\n`;
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('list')
    .description('show every setting, its effective value (key masked) and where it comes from')
    .action(
      action(deps, async (_args, _opts, ctx) => {
        const result = await configList(ctx);
        if (ctx.mode.json) return printJson(ctx, result);
        ctx.io.stdout.write(formatConfigList(result));
      }),
    );
  examples(command, ['mint-admin config list', 'mint-admin --profile staging config list --json']);
}
