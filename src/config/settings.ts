// The settings' vocabulary: their keys, defaults and environment variables, and where a value came
// from. Precedence is flag > environment > the selected profile in the config file > default (cli.md,
// "Where settings come from"); resolve.ts applies it, store.ts reads the file, validators.ts checks values.

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
