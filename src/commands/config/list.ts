import type { Command } from 'commander';
import { action, examples, printJson } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { describeSource, type Setting } from '../../config.js';
import { maskKey } from '../../redact.js';

export interface ListedSetting {
  value: string | null;
  source: string | null;
}

export type ConfigListResult = Record<'profile' | 'api-key' | 'project-id' | 'base-url' | 'export-api', ListedSetting>;

export async function configList(ctx: Context): Promise<ConfigListResult> {
  const s = await ctx.settings();
  const listed = (key: keyof ConfigListResult, setting: Setting | undefined, show = (v: string) => v) =>
    setting ? { value: show(setting.value), source: describeSource(key, setting) } : { value: null, source: null };
  return {
    profile: listed('profile', s.profile),
    'api-key': listed('api-key', s.apiKey, maskKey),
    'project-id': listed('project-id', s.projectId),
    'base-url': listed('base-url', s.baseUrl),
    'export-api': listed('export-api', s.exportApi),
  };
}

export function formatConfigList(result: ConfigListResult): string {
  const rows = Object.entries(result).map(([key, { value, source }]) => [key, value ?? '(not set)', source ?? '']);
  const width = (i: number) => Math.max(...rows.map((r) => r[i]!.length));
  return rows.map((r) => `${r[0]!.padEnd(width(0))}  ${r[1]!.padEnd(width(1))}  ${r[2]}`.trimEnd()).join('\n') + '\n';
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
