import { apacheConfig } from './apache.js';
import { caddyConfig } from './caddy.js';
import { cloudfrontConfig } from './cloudfront.js';
import { normalizeRoot, type Host, type HostConfigOptions } from './common.js';
import { nginxConfig } from './nginx.js';
import { s3Config } from './s3.js';

export { DEFAULT_DOMAIN, DEFAULT_ROOT, HOSTS, type Host, type HostConfigOptions } from './common.js';

const GENERATORS: Record<Host, (opts: HostConfigOptions) => string> = {
  nginx: nginxConfig,
  caddy: caddyConfig,
  apache: apacheConfig,
  cloudfront: cloudfrontConfig,
  s3: s3Config,
};

export function hostConfig(host: Host, opts: HostConfigOptions): string {
  return GENERATORS[host]({ ...opts, root: normalizeRoot(opts.root) });
}
