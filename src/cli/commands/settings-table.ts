// The settings in effect, each with its value (the key masked) and where it comes from, and the
// aligned rows a person reads: what `config list` prints, and `auth status` above its check.
import { describeSource } from '../../config/resolve.js';
import type { Settings } from '../../config/settings.js';
import { maskKey, redactUrl } from '../../redact.js';

export interface ListedSetting {
  value: string | null;
  source: string | null;
}

const FIELDS = {
  profile: 'profile',
  'api-key': 'apiKey',
  'project-id': 'projectId',
  'base-url': 'baseUrl',
  'export-api': 'exportApi',
} as const;
export type SettingKey = keyof typeof FIELDS;

/** The given settings in the given order; the key masked. */
export function listSettings<K extends SettingKey>(settings: Settings, keys: readonly K[]): Record<K, ListedSetting> {
  const listed = {} as Record<K, ListedSetting>;
  for (const key of keys) {
    const setting = settings[FIELDS[key]];
    const value =
      setting &&
      (key === 'api-key' ? maskKey(setting.value) : key === 'base-url' ? redactUrl(setting.value) : setting.value);
    listed[key] = setting ? { value: value!, source: describeSource(key, setting) } : { value: null, source: null };
  }
  return listed;
}

/** One line a setting: name, value (or "(not set)") and source, in aligned columns. */
export function settingRows(listed: Record<string, ListedSetting>): string[] {
  const rows = Object.entries(listed).map(([key, { value, source }]) => [key, value ?? '(not set)', source ?? '']);
  const width = (i: number) => rows.reduce((most, row) => Math.max(most, row[i]!.length), 0);
  return rows.map((r) => `${r[0]!.padEnd(width(0))}  ${r[1]!.padEnd(width(1))}  ${r[2]}`.trimEnd());
}
