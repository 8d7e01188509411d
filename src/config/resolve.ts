// Which value of each setting wins, and how to name where it came from in a message.
import { UsageError } from '../errors.js';
import {
  DEFAULT_BASE_URL,
  DEFAULT_EXPORT_API,
  DEFAULT_PROFILE,
  ENV_VARS,
  type Env,
  type GlobalOptions,
  type Setting,
  type SettingKey,
  type SettingSource,
  type Settings,
} from './settings.js';
import type { ConfigStore } from './store.js';

export function resolveProfile(globals: GlobalOptions, env: Env): Setting {
  if (globals.profile !== undefined) return { value: checkProfileName(globals.profile), source: 'flag' };
  const fromEnv = env[ENV_VARS.profile];
  if (fromEnv) return { value: checkProfileName(fromEnv), source: 'env' };
  return { value: DEFAULT_PROFILE, source: 'default' };
}

export function resolveSettings(globals: GlobalOptions, env: Env, store: ConfigStore): Settings {
  const profile = resolveProfile(globals, env);
  checkProfileExists(profile, store);
  const saved = store.read(profile.value);
  const pick = (key: SettingKey, flag: string | undefined): Setting | undefined => {
    const fromEnv = env[ENV_VARS[key]] || undefined;
    const fromConfig = saved[key] || undefined;
    const found: Array<[SettingSource, string | undefined, string]> = [
      ['flag', flag, ''],
      ['env', fromEnv, ENV_VARS[key]],
      ['config', fromConfig, `profile "${profile.value}"`],
    ];
    const winner = found.findIndex(([, value]) => value !== undefined);
    if (winner < 0) return undefined;
    const [source, value] = found[winner]!;
    const overrides = found
      .slice(winner + 1)
      .filter(([, hidden]) => hidden !== undefined)
      .map(([, , label]) => label);
    return overrides.length > 0 ? { value: value!, source, overrides } : { value: value!, source };
  };
  return {
    profile,
    apiKey: pick('api-key', undefined),
    projectId: pick('project-id', globals.project),
    baseUrl: pick('base-url', globals.baseUrl) ?? { value: DEFAULT_BASE_URL, source: 'default' },
    exportApi: pick('export-api', globals.exportApi) ?? { value: DEFAULT_EXPORT_API, source: 'default' },
  };
}

/**
 * A profile chosen by --profile or MINT_ADMIN_PROFILE must be in the file: a misspelt one would
 * otherwise run with no settings at all, or with the environment's, and say nothing. "default" needs
 * no file. `config set` does not come here: it is how a profile is made.
 */
export function checkProfileExists(profile: Setting, store: ConfigStore): void {
  if (profile.source === 'default' || profile.value === DEFAULT_PROFILE) return;
  const known = store.profiles();
  if (known.includes(profile.value)) return;
  const has = known.length > 0 ? `its profiles are ${known.join(', ')}` : 'it has no profiles';
  throw new UsageError(
    `no profile "${profile.value}" in ${store.path}; ${has} (\`mint-admin --profile ${profile.value} config set <key> <value>\` creates it)`,
  );
}

function checkProfileName(name: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(name)) {
    throw new UsageError(`invalid profile name "${name}": use letters, digits, "-" and "_"`);
  }
  return name;
}

/** Where a setting comes from, and what it hides: "MINTLIFY_PROJECT_ID (overrides profile "ci")". */
export function describeSource(key: SettingKey | 'profile', setting: Setting): string {
  const where = sourceName(key, setting);
  return setting.overrides?.length ? `${where} (overrides ${setting.overrides.join(', ')})` : where;
}

function sourceName(key: SettingKey | 'profile', setting: Setting): string {
  switch (setting.source) {
    case 'flag':
      return key === 'project-id'
        ? '--project'
        : key === 'base-url'
          ? '--base-url'
          : key === 'export-api'
            ? '--export-api'
            : '--profile';
    case 'env':
      return ENV_VARS[key];
    case 'config':
      return 'config file';
    case 'default':
      return 'default';
  }
}

/** Where a setting was found, phrased for error messages: "MINTLIFY_ADMIN_API_KEY", "the config file". */
export function settingOrigin(key: SettingKey, setting: Setting, profile: string): string {
  if (setting.source === 'config') return `${key} in profile "${profile}" of the config file`;
  return sourceName(key, setting);
}
