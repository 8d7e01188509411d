// `mint-admin mcp`: the MCP server on stdio. Thin: checks --allow and --root (exit 2 before anything
// starts), then hands over to the server face (src/mcp/), loaded only here with the SDK.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Context, Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { parseAllow, WRITE_GROUPS } from '../../../mcp/groups.js';
import type { McpServerDeps } from '../../../mcp/server.js';

interface McpFlags {
  allow?: string[];
  root?: string;
  db?: string;
}

export function registerMcp(program: Command, deps: Deps): void {
  const command = program
    .command('mcp')
    .description('run a Model Context Protocol server on stdio, for AI agents (read-only tools unless --allow)')
    // Repeated, it adds up (as gh's repeated flags do): keeping only the last dropped groups in silence.
    .option(
      '--allow <group,...>',
      `also offer the tools that change something or spend credits: ${WRITE_GROUPS.join(', ')}`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--root <dir>', 'the directory export_run may write under (default: the current directory)')
    .option(
      '--db <file>',
      'the analytics database analytics_query reads (default: $XDG_DATA_HOME/mint-admin/<projectId>.duckdb, as `analytics sync` writes it)',
    )
    .action(
      action<McpFlags>(deps, async (_args, flags, ctx) => {
        const allow = parseAllow(flags.allow?.join(','));
        const root = resolve(flags.root ?? process.cwd());
        // Not fs/promises: loading it (with readline and the streams it brings) would slow the server's start.
        if (!isDirectory(root))
          throw new UsageError(`--root: ${JSON.stringify(flags.root ?? root)} is not a directory`);
        if (flags.db !== undefined && flags.db.trim() === '') throw new UsageError('--db: give a file name');
        // Resolved now: the server's working directory is not the client's concern later.
        const db = flags.db === undefined ? undefined : resolve(flags.db);
        const { runMcpServer } = await import('../../../mcp/server.js');
        await runMcpServer(serverDeps(ctx, db), { allow, root });
      }),
    );
  examples(command, [
    'mint-admin mcp                          # read-only tools',
    'mint-admin mcp --allow agent,preview    # also start agent jobs and preview builds',
    'mint-admin mcp --db ./analytics.duckdb  # analytics_query reads this database',
    'claude mcp add mint-admin -- mint-admin mcp --allow agent',
  ]);
}

/** The server's dependencies from the CLI's: its settings, API client, terminal, signal and stderr lines. */
function serverDeps(ctx: Context, db: string | undefined): McpServerDeps {
  return {
    api: () => ctx.api(),
    projectId: () => ctx.projectId(),
    settings: async () => {
      const settings = await ctx.settings();
      return { apiKey: settings.apiKey?.value, baseUrl: settings.baseUrl.value, exportApi: settings.exportApi.value };
    },
    dispatcher: () => ctx.dispatcher(),
    // --db, else where `analytics sync` writes the project's database.
    analyticsDatabase: async () => {
      if (db !== undefined) return db;
      const { defaultDatabasePath } = await import('../../../analytics-store/db.js');
      return defaultDatabasePath(ctx.env, await ctx.projectId());
    },
    stdin: ctx.io.stdin,
    stdout: ctx.io.stdout,
    signal: ctx.signal,
    random: ctx.random,
    log: ctx.reporter,
  };
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // missing, or not ours to read: not a directory the server can use
  }
}
