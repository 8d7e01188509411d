// What every generated host config agrees on, so the five stay the same site: the resolution order
// of resolve.ts, the 404 page, and two cache classes. Next.js puts content-hashed files under
// _next/static/ (a changed file gets a new name), so they may be cached for a year; everything else
// (pages, and images or fonts whose names do not change) is revalidated after a few minutes.

export interface HostConfigOptions {
  /** where the extracted site lives on the server (absolute) */
  root: string;
  /** the site's host name */
  domain: string;
  /** '' or '/docs' (normalizeBasePath) */
  basePath: string;
}

export const HOSTS = ['nginx', 'caddy', 'apache', 'cloudfront', 's3'] as const;
export type Host = (typeof HOSTS)[number];

export const HASHED_ASSETS_DIR = '_next/static/';
export const LONG_CACHE = 'public, max-age=31536000, immutable';
export const SHORT_CACHE = 'public, max-age=300, must-revalidate';
/** Types worth compressing (images and fonts other than SVG are compressed already). */
export const COMPRESSIBLE_TYPES = [
  'text/html',
  'text/css',
  'text/javascript',
  'application/javascript',
  'application/json',
  'application/manifest+json',
  'application/xml',
  'text/xml',
  'text/plain',
  'image/svg+xml',
];

export const DEFAULT_ROOT = '/var/www/docs';
export const DEFAULT_DOMAIN = 'docs.example.com';

/**
 * `--root` as every host wants it: one slash between segments and none at the end, except that the
 * file system root stays `/` (an empty root is `root ;` to nginx and `DocumentRoot ` to Apache).
 */
export function normalizeRoot(root: string): string {
  return root.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1');
}

/** A directory under the root, without the doubled slash `/` + `/sub` would make. */
export function underRoot(root: string, relative: string): string {
  return root === '/' ? `/${relative}` : `${root}/${relative}`;
}

export function header(comment: string, lines: string[]): string {
  return lines.map((line) => (line === '' ? comment : `${comment} ${line}`)).join('\n');
}
