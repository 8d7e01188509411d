// Checks on a setting's value wherever it came from (flag, environment, config file, library
// argument): each returns the value to use or throws, naming where the bad value was found.
import { ConfigError, type KeyFault, UsageError } from '../errors.js';
import { describeValue } from '../ids.js';
import { maskKey, redactUrl } from '../redact.js';
import {
  API_KEYS_PAGE,
  DEFAULT_BASE_URL,
  EXPORT_API_VALUES,
  type ExportApiSetting,
  SETTING_KEYS,
  type SettingKey,
} from './settings.js';

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
