import { once } from 'node:events';
import type { Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { parsePort } from '../sandbox.js';

export interface ServeFlags {
  port: string;
  host: string;
  basePath?: string;
}

export const DEFAULT_SERVE_PORT = '4173';

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('serve')
    .description(
      'serve an extracted export locally as production will (extensionless URLs, index.html, 404.html), to preview it before deploying',
    )
    .argument('<dir>', 'the directory an export was extracted into')
    .option('--port <n>', 'port to listen on (0 picks a free one)', DEFAULT_SERVE_PORT)
    .option('--host <address>', 'address to listen on (0.0.0.0 shares the preview with your network)', '127.0.0.1')
    .option('--base-path <path>', 'serve the site under this URL path, e.g. /docs, as the host will')
    .action(
      action<ServeFlags>(deps, async ([dir], flags, ctx) => {
        const port = parsePort(flags.port);
        const [{ normalizeBasePath }, { checkSiteDirectory }, { startSiteServer }] = await Promise.all([
          import('../../../site/resolve.js'),
          import('../../../site/site-files.js'),
          import('../../../site/serve.js'),
        ]);
        const basePath = normalizeBasePath(flags.basePath);
        const root = await checkSiteDirectory(dir!);
        const server = await startSiteServer({ root, basePath, host: flags.host, port });
        try {
          // stdout: the URL alone, so a script can read it; the how-to goes to stderr.
          ctx.io.stdout.write(`${server.url}\n`);
          ctx.reporter.info(
            `Serving ${root} on ${server.url} (no directory listings, 404.html for missing pages). Stop with Ctrl-C.`,
          );
          // Ctrl-C is how a preview is stopped: it ends the command normally, not as an interruption.
          if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
        } finally {
          await server.close();
        }
      }),
    );
  examples(command, ['mint-admin export serve ./site', 'mint-admin export serve ./site --port 8080 --base-path /docs']);
}
