// The config file as named profiles: where it lives, and reading and editing one setting of a profile.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../errors.js';
import type { Env, SettingKey } from './settings.js';
import { readTrusted, updateTrusted } from './trusted-file.js';

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
 * Writes (config set/unset only) go through trusted-file.ts: locked, never through a link, 0600.
 * Reading never creates anything. An untrusted file or directory is refused (trusted-file.ts).
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
