import { describe, expect, it } from 'vitest';
import { checkApiKey, checkBaseUrl, checkProjectId } from '../src/config/validators.js';
import { configFilePath, type ConfigStore, type ProfileValues } from '../src/config/store.js';
import { resolveSettings } from '../src/config/resolve.js';
import { ConfigError, UsageError } from '../src/errors.js';
import { exitCodeOf } from '../src/cli/cli-errors.js';

function memoryStore(profiles: Record<string, ProfileValues>): ConfigStore {
  return {
    path: '/nowhere/config.json',
    read: (p) => ({ ...profiles[p] }),
    profiles: () => Object.keys(profiles),
    write: async () => {
      throw new Error('resolving settings must not write');
    },
    remove: async () => false,
  };
}

const store = memoryStore({
  default: { 'api-key': 'mint_fromconfig00001', 'project-id': 'cfg-project' },
  staging: { 'project-id': 'staging-project', 'base-url': 'https://staging.example.com' },
});

describe('resolveSettings precedence: flag > env > profile > default', () => {
  it.each([
    [
      'the default profile supplies what nothing else does',
      {},
      {},
      'cfg-project',
      'config',
      'https://api.mintlify.com',
      'default',
    ],
    [
      'the environment beats the config file',
      {},
      { MINTLIFY_PROJECT_ID: 'env-project' },
      'env-project',
      'env',
      'https://api.mintlify.com',
      'default',
    ],
    [
      'a flag beats the environment',
      { project: 'flag-project' },
      { MINTLIFY_PROJECT_ID: 'env-project' },
      'flag-project',
      'flag',
      'https://api.mintlify.com',
      'default',
    ],
    [
      '--profile selects another profile',
      { profile: 'staging' },
      {},
      'staging-project',
      'config',
      'https://staging.example.com',
      'config',
    ],
    [
      'MINT_ADMIN_PROFILE selects a profile',
      {},
      { MINT_ADMIN_PROFILE: 'staging' },
      'staging-project',
      'config',
      'https://staging.example.com',
      'config',
    ],
    [
      '--profile beats MINT_ADMIN_PROFILE',
      { profile: 'default' },
      { MINT_ADMIN_PROFILE: 'staging' },
      'cfg-project',
      'config',
      'https://api.mintlify.com',
      'default',
    ],
    [
      'MINTLIFY_API_URL beats the profile',
      { profile: 'staging' },
      { MINTLIFY_API_URL: 'http://127.0.0.1:9' },
      'staging-project',
      'config',
      'http://127.0.0.1:9',
      'env',
    ],
    [
      '--base-url beats MINTLIFY_API_URL',
      { baseUrl: 'http://flag' },
      { MINTLIFY_API_URL: 'http://env' },
      'cfg-project',
      'config',
      'http://flag',
      'flag',
    ],
  ])('%s', (_name, globals, env, project, projectSource, baseUrl, baseSource) => {
    const s = resolveSettings(globals, env, store);
    expect(s.projectId).toMatchObject({ value: project, source: projectSource });
    expect(s.baseUrl).toMatchObject({ value: baseUrl, source: baseSource });
  });

  it('takes the key from the environment before the profile, and never from a flag', () => {
    expect(resolveSettings({}, {}, store).apiKey).toEqual({ value: 'mint_fromconfig00001', source: 'config' });
    expect(resolveSettings({}, { MINTLIFY_ADMIN_API_KEY: 'mint_fromenv' }, store).apiKey).toEqual({
      value: 'mint_fromenv',
      source: 'env',
      overrides: ['profile "default"'],
    });
    expect(resolveSettings({ profile: 'staging' }, {}, store).apiKey).toBeUndefined();
  });

  it('names every lower place that holds a value the winner hides, and nothing when none does', () => {
    const s = resolveSettings(
      { project: 'flag-project' },
      { MINTLIFY_PROJECT_ID: 'env-project', MINTLIFY_API_URL: 'http://env' },
      store,
    );
    expect(s.projectId).toEqual({
      value: 'flag-project',
      source: 'flag',
      overrides: ['MINTLIFY_PROJECT_ID', 'profile "default"'],
    });
    expect(s.baseUrl).toEqual({ value: 'http://env', source: 'env' });
    expect(resolveSettings({}, {}, store).projectId).toEqual({ value: 'cfg-project', source: 'config' });
  });

  it('refuses a profile the store does not have, but not "default"', () => {
    expect(() => resolveSettings({ profile: 'stagign' }, {}, store)).toThrow(
      'no profile "stagign" in /nowhere/config.json; its profiles are default, staging (`mint-admin --profile stagign config set <key> <value>` creates it)',
    );
    expect(() => resolveSettings({}, { MINT_ADMIN_PROFILE: 'stagign' }, store)).toThrow(UsageError);
    expect(resolveSettings({ profile: 'default' }, {}, memoryStore({})).profile).toEqual({
      value: 'default',
      source: 'flag',
    });
  });

  it('refuses a profile name that could not be a key in the file', () => {
    expect(() => resolveSettings({ profile: '../x' }, {}, store)).toThrow(UsageError);
  });
});

describe('checkApiKey', () => {
  it.each([['an admin key', 'mint_abc123DEF_456-x']])('accepts %s', (_n, key) =>
    expect(checkApiKey(key, 'the key')).toBe(key),
  );

  it.each([
    ['an assistant key, naming it', 'mint_dsc_abcdef123456', /assistant API key/],
    ['an index key, naming it', 'mint_us_abcdef123456', /search index API key/],
    ['a key without the prefix', 'sk_live_abcdef', /should start with "mint_"/],
    ['a key with a space', 'mint_abc def', /should start with "mint_"/],
  ])('refuses %s with exit 3', (_n, key, message) => {
    let caught: unknown;
    try {
      checkApiKey(key, 'the key');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect(exitCodeOf(caught)).toBe(3);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).toContain('https://app.mintlify.com/settings/organization/api-keys');
    expect((caught as Error).message).not.toContain(key.slice(6));
  });
});

describe('value checks', () => {
  it.each(['a/b', 'has space', '', '../etc'])('refuses project id %j', (id) => {
    expect(() => checkProjectId(id, '--project')).toThrow(UsageError);
  });
  it.each(['ftp://x', 'not a url', 'https://user:pw@host', 'https://host/?q=1'])('refuses base URL %j', (url) => {
    expect(() => checkBaseUrl(url, '--base-url')).toThrow(UsageError);
  });
  it('drops a trailing slash from the base URL', () => {
    expect(checkBaseUrl('https://api.example.com/', 'x')).toBe('https://api.example.com');
  });
  it('puts the file under XDG_CONFIG_HOME without a -nodejs suffix', () => {
    if (process.platform !== 'linux') return;
    expect(configFilePath({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/mint-admin/config.json');
    expect(configFilePath({ HOME: '/home/u' })).toBe('/home/u/.config/mint-admin/config.json');
  });
});
