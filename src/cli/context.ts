// What a command is given instead of reaching for process globals: the terminal, the environment,
// the clock, the abort signal, and lazily built settings and API client.
import type { Dispatcher } from 'undici';
import type { Clock } from '../clock.js';
import { checkApiKey, checkBaseUrl, checkProjectId } from '../config/validators.js';
import { ENV_VARS, type Env, type GlobalOptions, type Settings } from '../config/settings.js';
import { openConfigStore, type ConfigStore } from '../config/store.js';
import { resolveSettings, settingOrigin } from '../config/resolve.js';
import { ConfigError } from '../errors.js';
import { createReporter, type IO, type OutputMode } from './io.js';
import type { Reporter } from '../reporter.js';
import type { ApiClient } from '../api/client.js';
import { formatDuration } from '../duration.js';
import { scrubSecrets } from '../redact.js';
import { forTerminal } from '../terminal-text.js';
import { VERSION } from '../version.js';

/** The process-level dependencies main.ts builds (tests build their own). */
export interface Deps {
  io: IO;
  env: Env;
  clock: Clock;
  /** Aborted on Ctrl-C with an InterruptedError as its reason. */
  signal: AbortSignal;
  random: () => number;
  /**
   * Secrets met during the run (the admin key, once resolved), masked in everything printed, the
   * final error line included (run.ts reads the same set).
   */
  secrets?: Set<string>;
  /**
   * Told how a failed run ended: the error and the line runCli printed for it (key masked), for a
   * caller that says why in its own words (the action's annotation and summary).
   */
  onFailure?: (failure: RunFailure) => void;
}

export interface RunFailure {
  /** What was thrown: a MintAdminError, commander's CommanderError (a bad flag), or anything else. */
  error: unknown;
  /** The first line of what runCli printed on stderr for it, without `error: `. */
  line: string;
  code: number;
}

export interface Context extends Deps {
  globals: GlobalOptions;
  mode: OutputMode;
  reporter: Reporter;
  debug(line: string): void;
  /** One line of human output on stdout: control characters made visible, the admin key masked. */
  print(line: string): void;
  /** Masks every known secret in a piece of text (for data formats, which keep their own escaping). */
  scrub(text: string): string;
  configStore(): Promise<ConfigStore>;
  settings(): Promise<Settings>;
  /** The project id or a ConfigError naming the three ways to set one. */
  projectId(): Promise<string>;
  api(): Promise<ApiClient>;
  /** The proxy-aware dispatcher, for requests to other origins (bundle storage). */
  dispatcher(): Promise<Dispatcher>;
  close(): Promise<void>;
}

export function outputMode(globals: GlobalOptions, env: Env): OutputMode {
  return {
    json: Boolean(globals.json),
    quiet: Boolean(globals.quiet),
    // https://no-color.org: any non-empty NO_COLOR turns colour off.
    color: globals.color !== false && !env.NO_COLOR,
  };
}

export function createContext(deps: Deps, globals: GlobalOptions): Context {
  const mode = outputMode(globals, deps.env);
  const secrets = deps.secrets ?? new Set<string>();
  const scrub = (text: string) => scrubSecrets(text, [...secrets]);
  // Everything for a person passes here: server text must not drive the terminal or show the key.
  const forPeople = (text: string) => forTerminal(scrub(text), { multiline: true });
  const reporter = createReporter(deps.io, mode, deps.clock, forPeople);
  const debug = (line: string) => {
    if (globals.debug) deps.io.stderr.write(`debug: ${forPeople(line)}\n`);
  };
  let store: ConfigStore | undefined;
  let settings: Promise<Settings> | undefined;
  let dispatcher: Promise<Dispatcher> | undefined;
  let client: Promise<ApiClient> | undefined;

  const ctx: Context = {
    ...deps,
    // On the context itself, so a context derived from this one (withSettings) masks what it adds.
    secrets,
    globals,
    mode,
    reporter,
    debug,
    scrub,
    print: (line) => void deps.io.stdout.write(`${forTerminal(scrub(line))}\n`),
    configStore: async () => (store ??= openConfigStore(deps.env)),
    settings: () =>
      (settings ??= ctx.configStore().then((store) => {
        const resolved = resolveSettings(globals, deps.env, store);
        if (resolved.apiKey) secrets.add(resolved.apiKey.value);
        return resolved;
      })),
    projectId: async () => projectIdOf(await ctx.settings()),
    dispatcher: () =>
      (dispatcher ??= import('../api/http.js').then(({ createDispatcher }) => createDispatcher(deps.env))),
    api: () => (client ??= buildClient(ctx)),
    async close() {
      if (dispatcher) await (await dispatcher).close().catch(() => undefined);
    },
  };
  return ctx;
}

/**
 * The same context with other settings: `auth login` checks a key before it is saved, so the key
 * must be the one the API is asked with, whatever the environment or the file hold.
 */
export function withSettings(ctx: Context, settings: Settings): Context {
  if (settings.apiKey) ctx.secrets?.add(settings.apiKey.value);
  let client: Promise<ApiClient> | undefined;
  const derived: Context = {
    ...ctx,
    settings: () => Promise.resolve(settings),
    projectId: async () => projectIdOf(settings),
    api: () => (client ??= buildClient(derived)),
  };
  return derived;
}

function projectIdOf(s: Settings): string {
  if (!s.projectId) {
    throw new ConfigError(
      `no project id: pass --project <id>, set ${ENV_VARS['project-id']}, or run \`mint-admin config set project-id <id>\``,
      'project-id',
    );
  }
  return checkProjectId(s.projectId.value, settingOrigin('project-id', s.projectId, s.profile.value));
}

/** `retrying in 2s`, or `retrying shortly` for a pause that would read as "in 0s". */
export function retryingIn(delayMs: number): string {
  return delayMs < 500 ? 'retrying shortly' : `retrying in ${formatDuration(delayMs)}`;
}

async function buildClient(ctx: Context): Promise<ApiClient> {
  const s = await ctx.settings();
  if (!s.apiKey) {
    throw new ConfigError(
      `no API key: set ${ENV_VARS['api-key']} or run \`mint-admin config set api-key\` (create a key at https://app.mintlify.com/settings/organization/api-keys)`,
      'api-key',
    );
  }
  const apiKey = checkApiKey(s.apiKey.value, settingOrigin('api-key', s.apiKey, s.profile.value));
  const baseUrl = checkBaseUrl(s.baseUrl.value, settingOrigin('base-url', s.baseUrl, s.profile.value));
  const [{ ApiClient }, { fileRequestLedger }, dispatcher] = await Promise.all([
    import('../api/client.js'),
    import('../budget/ledger-file.js'),
    ctx.dispatcher(),
  ]);
  return new ApiClient({
    baseUrl,
    apiKey,
    userAgent: `mint-admin/${VERSION} node/${process.versions.node}`,
    dispatcher,
    clock: ctx.clock,
    random: ctx.random,
    signal: ctx.signal,
    // Only under --debug: the client then formats its request lines (each a URL parsed again to redact
    // it, twice a request), which a run without --debug would format only to drop.
    debug: ctx.globals.debug ? ctx.debug : undefined,
    // Every retry says so, once (README promises a note), however brief the pause.
    onRetry: ({ delayMs, reason }) => ctx.reporter.info(`${reason}; ${retryingIn(delayMs)}`),
    // Every analytics request of every command counts against the organization's hourly budget.
    requestLedger: fileRequestLedger(ctx.env, baseUrl, apiKey),
  });
}
