import { once } from 'node:events';
import { startSandbox, type SandboxExportFlow } from './index.js';

export interface SandboxCommandOptions {
  port?: number;
  host?: string;
  flows?: SandboxExportFlow[];
}

export interface SandboxCommandIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether the export lines reach a person (who pastes them) or a file or pipe (which is sourced). */
  stdoutIsTTY?: boolean;
}

/**
 * `mint-admin sandbox`: runs the sandbox until `signal` aborts. stdout gets only the `export` lines,
 * so they can be pasted or redirected to a file and sourced; the how-to goes to stderr.
 */
export async function runSandboxCommand(
  opts: SandboxCommandOptions,
  io: SandboxCommandIO,
  signal: AbortSignal,
): Promise<void> {
  const sandbox = await startSandbox({ port: opts.port, host: opts.host, flows: opts.flows });
  try {
    io.stdout.write(
      `export MINTLIFY_API_URL=${sandbox.baseUrl}\n` +
        `export MINTLIFY_ADMIN_API_KEY=${sandbox.apiKey}\n` +
        `export MINTLIFY_PROJECT_ID=${sandbox.projectId}\n`,
    );
    io.stderr.write(
      `Sandbox of the Admin API on ${sandbox.baseUrl} (bundle downloads from ${sandbox.storageUrl}).\n` +
        (io.stdoutIsTTY
          ? 'Paste the lines above into your shell, then use mint-admin as usual. Outcomes: put [fail],\n'
          : 'Source the export lines written to stdout (e.g. `. ./sandbox.env`), then use mint-admin as usual.\nOutcomes: put [fail],\n') +
        '[no-changes] or [archive] in an agent prompt; export domains fail.* and noplan.* fail;\n' +
        'preview branches fail/* fail; automations wf_scheduled (trigger) and wf_webhook (--webhook).\n' +
        `Static export flows served: ${[...sandbox.faults.exportFlows].join(', ') || 'none'} (switch with --flows).\n` +
        `Faults: POST ${sandbox.baseUrl}/_sandbox/faults. Stop with Ctrl-C.\n`,
    );
    if (!signal.aborted) await once(signal, 'abort');
  } finally {
    await sandbox.close();
  }
}
