// Settings: where the key, project and base URL come from. Precedence is flag > environment >
// the selected profile in the config file > default (cli.md, "Where settings come from").
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readTrusted, updateTrusted } from './config-file.js';
import { ConfigError, type KeyFault, UsageError } from './errors.js';
import { describeValue } from './ids.js';
import { maskKey, redactUrl } from './redact.js';

export type Env = Record<string, string | undefined>;

export const SETTING_KEYS = ['api-key', 'project-id', 'base-url', 'export-api'] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export const DEFAULT_BASE_URL = 'https://api.mintlify.com';
export const DEFAULT_PROFILE = 'default';
export const EXPORT_API_VALUES = ['auto', 'jobs', 'project'] as const;
export type ExportApiSetting = (typeof EXPORT_API_VALUES)[number];
export const DEFAULT_EXPORT_API: ExportApiSetting = 'auto';
export const API_KEYS_PAGE = 'https://app.mintlify.com/settings/organization/api-keys';

export const ENV_VARS = {
  'api-key': 'MINTLIFY_ADMIN_API_KEY',
  'project-id': 'MINTLIFY_PROJECT_ID',
  'base-url': 'MINTLIFY_API_URL',
  'export-api': 'MINT_ADMIN_EXPORT_API',
  profile: 'MINT_ADMIN_PROFILE',
} as const;

/** The global flags every command accepts (commander's optsWithGlobals()). */
export interface GlobalOptions {
  project?: string;
  baseUrl?: string;
  profile?: string;
  /** `--export-api` (on the export commands that talk to the API). */
  exportApi?: string;
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
  debug?: boolean;
}

export type SettingSource = 'flag' | 'env' | 'config' | 'default';

export interface Setting {
  value: string;
  source: SettingSource;
  /**
   * The lower places that also hold a value this one hides ("MINTLIFY_PROJECT_ID", 'profile "ci"'):
   * a value set in the profile and silently beaten by a variable is a common surprise.
   */
  overrides?: string[];
}

export interface Settings {
  profile: Setting;
  apiKey: Setting | undefined;
  projectId: Setting | undefined;
  baseUrl: Setting;
  /** Which static export flow: auto | jobs | project (cli.md, "Static export flows"). */
  exportApi: Setting;
}

export type ProfileValues = Partial<Record<SettingKey, string>>;

/** What the config file holds: named profiles, each a small map of settings. */
export interface ConfigStore {
  readonly path: string;
  read(profile: string): ProfileValues;
  /** The names of the profiles the file holds (none when there is no file). */
  profiles(): string[];
  write(profile: string, key: SettingKey, value: string): Promise<void>;
  remove(profile: string, key: SettingKey): Promise<boolean>;
}

/** The platform's config directory without conf's default `-nodejs` suffix. */
export function configDirectory(env: Env): string {
  const home = env.HOME ?? homedir();
  if (process.platform === 'win32')
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'mint-admin', 'Config');
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'mint-admin');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'mint-admin');
}

export function configFilePath(env: Env): string {
  return join(configDirectory(env), 'config.json');
}

type ConfData = { profiles: Record<string, ProfileValues> };

/**
 * The config file. Every command reads settings, so reads are one small open and parse, no lock.
 * Writes (config set/unset only) go through config-file.ts: locked, never through a link, 0600.
 * Reading never creates anything. An untrusted file or directory is refused (config-file.ts).
 */
export function openConfigStore(env: Env): ConfigStore {
  const directory = configDirectory(env);
  const path = join(directory, 'config.json');
  const change = (edit: (profiles: Record<string, ProfileValues>) => Record<string, ProfileValues> | undefined) =>
    updateTrusted(directory, path, (text) => {
      const data = parseConfig(text, path);
      const next = edit(data.profiles ?? {});
      // The format conf wrote, so a file written before and after reads the same.
      return next === undefined ? undefined : JSON.stringify({ ...data, profiles: next }, undefined, '\t');
    });
  return {
    path,
    read: (profile) => ({ ...parseConfig(readTrusted(directory, path), path).profiles?.[profile] }),
    profiles: () => Object.keys(parseConfig(readTrusted(directory, path), path).profiles ?? {}),
    async write(profile, key, value) {
      await change((all) => ({ ...all, [profile]: { ...all[profile], [key]: value } }));
    },
    remove(profile, key) {
      return change((all) => {
        const current = all[profile];
        if (!current || current[key] === undefined) return undefined;
        const { [key]: _removed, ...rest } = current;
        return { ...all, [profile]: rest };
      });
    },
  };
}

function parseConfig(text: string | undefined, path: string): Partial<ConfData> {
  if (text === undefined) return {};
  try {
    const data = JSON.parse(text) as Partial<ConfData> | null;
    if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
    return typeof data.profiles === 'object' && data.profiles !== null ? data : { ...data, profiles: {} };
  } catch {
    throw new ConfigError(
      `the config file ${path} is not valid JSON; fix it, or remove it and set your settings again`,
    );
  }
}

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

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

export function checkSettingKey(key: string): SettingKey {
  if (!isSettingKey(key)) {
    throw new UsageError(`unknown config key "${key}"; the keys are ${SETTING_KEYS.join(', ')}`);
  }
  return key;
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

/**
 * An admin key starts with `mint_`. Assistant (`mint_dsc_`) and index (`mint_us_`) keys look alike
 * but the Admin API refuses them, so say which key is needed before any request is sent.
 */
export function checkApiKey(key: string, where: string): string {
  const refuse = (fault: KeyFault) => new ConfigError(keyFaultText(fault, where), 'api-key', fault);
  if (key.startsWith('mint_dsc_'))
    throw refuse({ fault: 'wrong-type', keyType: 'an assistant API', masked: maskKey(key) });
  if (key.startsWith('mint_us_'))
    throw refuse({ fault: 'wrong-type', keyType: 'a search index API', masked: maskKey(key) });
  if (!/^mint_[A-Za-z0-9_-]+$/.test(key)) throw refuse({ fault: 'malformed' });
  return key;
}

/** What is wrong with a key, `where` naming where it came from in the terms of the face that says it. */
export function keyFaultText(fault: KeyFault, where: string): string {
  return fault.fault === 'wrong-type'
    ? `${where} holds ${fault.keyType} key (${fault.masked}); mint-admin needs an admin API key (mint_...) from ${API_KEYS_PAGE}`
    : `${where} is not an admin API key: it should start with "mint_" and have no spaces; create one at ${API_KEYS_PAGE}`;
}

/** Project ids go into URL paths; refuse anything that could change the path. */
export function checkProjectId(id: unknown, where: string): string {
  // The type first: a regular expression would read `['abc']` as the string "abc".
  if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) {
    throw new UsageError(`${where}: ${describeValue(id)} is not a project id (letters, digits, "-" and "_" only)`);
  }
  return id;
}

export function checkBaseUrl(url: string, where: string): string {
  // Shown with its password REDACTED: the refusal must not print what it refuses to send.
  const shown = redactUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`${where}: "${shown}" is not a URL; use e.g. ${DEFAULT_BASE_URL}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new UsageError(`${where}: "${shown}" must be an http:// or https:// URL`);
  }
  refuseExtras(url, where);
  // Every route starts at the root (/v1/..., /v2/...): a path here would reach none of them, and the
  // 404 that came back would blame the id, not the setting.
  if (parsed.pathname !== '/') {
    throw new UsageError(
      `${where}: "${shown}" has a path ("${parsed.pathname}"); use the API's origin alone, e.g. ${parsed.origin}`,
    );
  }
  return url.replace(/\/+$/, '');
}

/**
 * Credentials, a query or a fragment in a base URL: refused wherever the setting is read (`config
 * list` too, which otherwise shows it), with one message. Not a URL at all is checkBaseUrl's to say.
 */
export function refuseExtras(url: string, where: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return;
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new UsageError(`${where}: "${redactUrl(url)}" must be a plain origin with no credentials, query or fragment`);
  }
}

/** The export-api setting, wherever it came from; a bad value is exit 2 naming its source. */
export function checkExportApi(value: string, where: string): ExportApiSetting {
  const given = value.trim().toLowerCase();
  if ((EXPORT_API_VALUES as readonly string[]).includes(given)) return given as ExportApiSetting;
  throw new UsageError(`${where}: "${value}" is not a static export flow; use one of ${EXPORT_API_VALUES.join(', ')}`);
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
