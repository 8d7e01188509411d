import type { Command } from 'commander';
import { action, examples } from '../command.js';
import type { Deps } from '../context.js';
import { UsageError } from '../../errors.js';

export interface SandboxOptions {
  port: string;
  host: string;
  flows: string;
}

const FLOWS = ['jobs', 'project'] as const;

/** `--flows jobs,project`: which static export flows the sandbox serves (the other answers 404). */
export function parseFlowList(text: string): Array<(typeof FLOWS)[number]> {
  const flows = text
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const bad = flows.find((f) => !(FLOWS as readonly string[]).includes(f));
  if (bad !== undefined || flows.length === 0) {
    throw new UsageError(`--flows: "${text}" is not a list of static export flows; use jobs, project or jobs,project`);
  }
  return [...new Set(flows)] as Array<(typeof FLOWS)[number]>;
}

export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535)
    throw new UsageError(`--port: "${text}" is not a port number (0-65535; 0 picks a free one)`);
  return port;
}

export function register(program: Command, deps: Deps): void {
  const command = program
    .command('sandbox')
    .description('run a local sandbox of the Admin API, for trying mint-admin and testing pipelines offline')
    .option('--port <n>', 'port for the API (0 picks a free one)', '0')
    .option('--host <address>', 'address to listen on', '127.0.0.1')
    .option(
      '--flows <list>',
      'static export flows to serve: jobs, project or both (the other answers 404)',
      'jobs,project',
    )
    .action(
      action<SandboxOptions>(deps, async (_args, opts, ctx) => {
        const port = parsePort(opts.port);
        const flows = parseFlowList(opts.flows);
        // The sandbox pulls in tar and the data generators: load it only for this command.
        const { runSandboxCommand } = await import('../../sandbox/command.js');
        // Ctrl-C is how a sandbox is stopped, so it ends the command normally rather than as an interruption.
        await runSandboxCommand({ port, host: opts.host, flows }, ctx.io, ctx.signal);
      }),
    );
  examples(command, [
    'mint-admin sandbox --port 4010',
    'mint-admin sandbox --flows project   # only the project-scoped export flow',
    'mint-admin sandbox > sandbox.env &   # then: . ./sandbox.env',
  ]);
}
