// What the library's functions beside the client need of an AdminClient, kept out of its public shape.
import type { Clock } from '../clock.js';
import { UsageError } from '../errors.js';

/** What the library's functions beside the client (export flows, waits) need of it; not public. */
export interface ClientSettings {
  /** Without a trailing slash: the key of the export flow memory. */
  baseUrl: string;
  clock: Clock;
  random: () => number;
}

// Keyed by any object, not AdminClient, so this file needs nothing of client.ts (which registers itself
// here): a value that is no client is refused by settingsOf at run time, as a script's mistake is.
const clientSettings = new WeakMap<object, ClientSettings>();

/** Kept by the constructor: the settings it checked, for settingsOf. */
export function rememberSettings(client: object, settings: ClientSettings): void {
  clientSettings.set(client, settings);
}

export function settingsOf(client: object): ClientSettings {
  const settings = clientSettings.get(client);
  if (!settings) throw new UsageError('client: not an AdminClient made with `new AdminClient(...)`');
  return settings;
}
