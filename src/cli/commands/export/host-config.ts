import { Argument, type Command } from 'commander';
import { action, examples } from '../../command.js';
import type { Deps } from '../../context.js';
import { UsageError } from '../../../errors.js';
import { DEFAULT_DOMAIN, DEFAULT_ROOT, HOSTS, normalizeRoot, type Host } from '../../../site/hosts/common.js';

export interface HostConfigFlags {
  root: string;
  domain: string;
  basePath?: string;
}

/** Checked before printing: a value with a quote, a brace or a newline would break out of the config's syntax. */
function checkRoot(root: string): string {
  if (!root.startsWith('/') || !/^[A-Za-z0-9._~/@+-]+$/.test(root)) {
    throw new UsageError(
      `--root: "${root}" must be an absolute path of letters, digits and . _ ~ / @ + - (the directory on the server)`,
    );
  }
  return normalizeRoot(root);
}

function checkDomain(domain: string): string {
  if (
    !/^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(
      domain,
    )
  ) {
    throw new UsageError(`--domain: "${domain}" is not a host name such as docs.example.com`);
  }
  return domain.toLowerCase();
}

export function register(group: Command, deps: Deps): void {
  const command = group
    .command('host-config')
    .description(
      'print a ready configuration for serving an extracted export: extensionless URLs, index.html, 404 page, cache headers',
    )
    .addArgument(new Argument('<host>', 'the server or service').choices(HOSTS))
    .option('--root <dir>', 'where the extracted site is on the server', DEFAULT_ROOT)
    .option('--domain <host>', "the site's host name (for S3 and CloudFront, also the bucket name)", DEFAULT_DOMAIN)
    .option('--base-path <path>', 'serve the site under this URL path, e.g. /docs')
    .action(
      action<HostConfigFlags>(deps, async ([host], flags, ctx) => {
        const [{ normalizeBasePath }, { hostConfig }] = await Promise.all([
          import('../../../site/resolve.js'),
          import('../../../site/hosts/index.js'),
        ]);
        const opts = {
          root: checkRoot(flags.root),
          domain: checkDomain(flags.domain),
          basePath: normalizeBasePath(flags.basePath),
        };
        ctx.io.stdout.write(hostConfig(host as Host, opts));
      }),
    );
  examples(command, [
    'mint-admin export host-config nginx --domain docs.example.com --root /var/www/docs > /etc/nginx/conf.d/docs.conf',
    'mint-admin export host-config caddy --base-path /docs',
    'mint-admin export host-config cloudfront --domain docs.example.com',
  ]);
}
