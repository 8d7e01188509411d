// The commander tree. Each group registers its leaf commands; nothing heavy is imported here, so
// --help and --version stay close to bare Node start-up.
import { Command } from 'commander';
import type { Deps } from './context.js';
import { exitCodeRows } from './exit-codes-help.js';
import { VERSION } from '../version.js';
import { wrapHelp } from './help-wrap.js';
import { suggestChoices } from './choice-suggestion.js';
import { groupAt, type Group } from './command-group.js';
import { registerAgent } from './commands/agent/index.js';
import { registerExport } from './commands/export/index.js';
import { registerSearches } from './commands/searches/index.js';
import { registerDeploy } from './commands/deploy/index.js';
import { registerPreview } from './commands/preview/index.js';
import { registerAutomation } from './commands/automation/index.js';
import { registerAutopilot } from './commands/autopilot/index.js';
import { registerAnalytics } from './commands/analytics/index.js';
import { registerConfig } from './commands/config/index.js';
import { registerAuth } from './commands/auth/index.js';
import { registerMcp } from './commands/mcp/index.js';
import { register as registerCompletion } from './commands/completion.js';
import { register as registerSandbox } from './commands/sandbox.js';

/** Help is wrapped to the terminal's width at print time (help-wrap.ts); 80 when not a terminal. */
export const HELP_WIDTH = 80;
/** Commander renders help unwrapped: a width it never reaches. */
const UNWRAPPED = 100_000;

const ENVIRONMENT_HELP = `
Environment:
  MINTLIFY_ADMIN_API_KEY   admin API key (mint_...); or \`mint-admin auth login\`
  MINTLIFY_PROJECT_ID      project id; or --project, or \`mint-admin config set project-id\`
  MINTLIFY_API_URL         API base URL (default https://api.mintlify.com)
  MINT_ADMIN_PROFILE       config profile to use (default "default")
  MINT_ADMIN_EXPORT_API    static export flow: auto (default), jobs or project
  HTTPS_PROXY, NO_PROXY    proxy settings
  NO_COLOR                 turn colour off

Exit codes:
${exitCodeRows().join('\n')}

Examples:
  $ mint-admin agent run "Document the new /v2/users endpoint" --wait
  $ mint-admin export run docs.example.com -o ./site
  $ mint-admin searches list --from 2026-11-01 --all --format csv -o searches.csv
  $ mint-admin preview start feat/new-guide --wait
`;

/**
 * The one command group these arguments run, when that is certain (command-group.ts), else
 * undefined. Building the leaves of every group costs several ms of each start (each option is an
 * object commander parses); a run needs only its own group's, and the other groups' names and
 * descriptions for commander's suggestions. Anything unusual builds them all.
 */
export function groupToBuild(argv: readonly string[]): Group | undefined {
  return groupAt(argv)?.group;
}

/** The command tree; with `argv`, only the group it runs gets its leaves (groupToBuild). */
export function buildProgram(deps: Deps, argv?: readonly string[]): Command {
  const program = new Command('mint-admin')
    .description(
      'Command-line client for the Mintlify Admin API: agent jobs, static export, docs analytics, deployments, previews and automations.',
    )
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('-p, --project <id>', 'project id (env MINTLIFY_PROJECT_ID)')
    .option('--base-url <url>', 'API base URL (env MINTLIFY_API_URL)')
    .option('--profile <name>', 'config profile (env MINT_ADMIN_PROFILE)')
    .option('--json', 'machine-readable JSON on stdout')
    .option('-q, --quiet', 'no progress or hints on stderr')
    .option('--no-color', 'no colour (also NO_COLOR)')
    .option('--debug', 'log HTTP requests and stack traces to stderr (secrets redacted)')
    .addHelpText('after', ENVIRONMENT_HELP)
    .showSuggestionAfterError(true)
    .exitOverride()
    // Every command's help lists the global options under their own heading, as gh shows inherited flags.
    .configureHelp({
      showGlobalOptions: true,
      styleTitle: (title) => (title === 'Global Options:' ? 'Global options:' : title),
    })
    .configureOutput({
      writeOut: (text) => void deps.io.stdout.write(wrapHelp(text, deps.io.columns ?? HELP_WIDTH)),
      writeErr: (text) => void deps.io.stderr.write(text),
      // Unwrapped and without colour whatever the terminal, so help can be rendered at build time
      // (prerendered.ts) and wrapped, like commander's own, when printed.
      getOutHelpWidth: () => UNWRAPPED,
      getErrHelpWidth: () => HELP_WIDTH,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    });

  const only = argv && groupToBuild(argv);
  const leaves = (group: Group) => only === undefined || only === group;
  registerAgent(program, deps, leaves('agent'));
  registerExport(program, deps, leaves('export'));
  registerSearches(program, deps, leaves('searches'));
  registerDeploy(program, deps, leaves('deploy'));
  registerPreview(program, deps, leaves('preview'));
  registerAutomation(program, deps, leaves('automation'));
  registerAutopilot(program, deps, leaves('autopilot'));
  registerAnalytics(program, deps, leaves('analytics'));
  registerConfig(program, deps, leaves('config'));
  registerAuth(program, deps, leaves('auth'));
  registerMcp(program, deps);
  registerCompletion(program, deps);
  registerSandbox(program, deps);
  suggestChoices(program);
  return program;
}
