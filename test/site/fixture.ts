// A generated export-like site for the verify/serve/host-config tests: pages with extensionless
// links, a directory index, a page whose name needs percent-encoding, hashed assets, a stylesheet
// with url(), a sitemap, a 404 page, and (with `plant`) one problem of each kind, listed exactly.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Problem } from '../../src/site/verify.js';

export interface SiteFixtureOptions {
  /** '' or '/docs' */
  basePath?: string;
  /** plant one problem of each kind */
  plant?: boolean;
  /** extra pages under reference/, each linking to the next (for size) */
  extraPages?: number;
}

export const DOMAIN = 'docs.example.com';
export const CSS = '_next/static/css/app-3f9a2c1b.css';
export const JS = '_next/static/chunks/main-8e7d4a06.js';

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>\n${body}\n</main></body></html>\n`;
}

/** Writes the site into root and returns the problems planted in it, in the order verify reports them. */
export function writeSite(root: string, opts: SiteFixtureOptions = {}): Problem[] {
  const bp = opts.basePath ?? '';
  const plant = Boolean(opts.plant);
  const files: Record<string, string | Buffer> = {};
  const head = `<link rel="stylesheet" href="${bp}/${CSS}"><link rel="preconnect" href="https://fonts.example.net"><script src="${bp}/${JS}" defer></script>`;
  files['index.html'] = page(
    'Home',
    [
      head,
      `<a href="${bp}/guides/intro">Intro</a> <a href="guides/intro">relative</a> <a href="${bp}/guides/">Guides</a> <a href="${bp}/guides">Guides, no slash</a>`,
      `<a href="${bp}/guides/intro?tab=1#setup">query and fragment</a> <a href="#top">top</a> <a href="mailto:docs@example.com">mail</a>`,
      `<a href="https://github.com/mintlify">GitHub</a> <a href="//cdn.example.net/x.js">cdn</a> <a href="https://${DOMAIN}${bp}/guides/intro">absolute, own host</a>`,
      `<a href="${bp}/guides/with%20space">encoded</a> <img src="${bp}/images/logo.png" srcset="${bp}/images/logo.png 1x,${bp}/images/logo@2x.png 2x" alt="">`,
      `<div style="background: url('${bp}/images/logo.png')"></div> <img src="data:image/png;base64,iVBORw0KGgo=" alt="">`,
      // Not links: a parser sees a comment and text; a regex would not.
      `<!-- <a href="/commented-out">old</a> --><pre><code>&lt;a href="/in-code"&gt;</code></pre><script>var s = '<img src="/in-script.png">';</script>`,
    ].join('\n'),
  );
  files['guides/index.html'] = page('Guides', `${head}\n<a href="intro">Intro</a> <a href="../">Home</a>`);
  files['guides/intro.html'] = page(
    'Intro',
    [
      head,
      `<h2 id="setup">Setup</h2> <a href="${bp}/">Home</a> <a href="../guides/with%20space">sibling</a> <video src="${bp}/images/demo.mp4" poster="${bp}/images/logo.png"></video>`,
      plant ? `<a href="${bp}/guides/missing">gone</a> <img src="../images/missing.png" alt="">` : '',
      plant ? `<img srcset="${bp}/images/logo.png 1x, ${bp}/images/logo@3x.png 3x" alt="">` : '',
      plant ? `<a href="${bp}/guides%2Fintro">encoded slash</a>` : '',
      plant && bp !== '' ? `<a href="/guides/intro">no base path</a>` : '',
    ].join('\n'),
  );
  files['guides/with space.html'] = page('With space', `<a href="${bp}/">Home</a>`);
  files['404.html'] = page('Not found', `<p>Page not found.</p> <a href="${bp}/">Home</a>`);
  files[CSS] =
    `body { background: url(../../../images/logo.png); }\n.f { src: url("/missing-font.woff2"); }\n.d { background: url(data:image/png;base64,AAAA); }\n`.replace(
      '/missing-font.woff2',
      plant ? `${bp}/fonts/missing.woff2` : `${bp}/fonts/inter.woff2`,
    );
  files[JS] = '"use strict";\n';
  files['fonts/inter.woff2'] = Buffer.from('wOF2');
  files['images/logo.png'] = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  files['images/logo@2x.png'] = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  files['images/demo.mp4'] = Buffer.from('mp4');
  const extra = opts.extraPages ?? 0;
  for (let i = 0; i < extra; i++) {
    const next = (i + 1) % extra;
    files[`reference/group-${Math.floor(i / 100)}/page-${i}.html`] = page(
      `Page ${i}`,
      `${head}\n<a href="${bp}/reference/group-${Math.floor(next / 100)}/page-${next}">next</a> <img src="${bp}/images/logo.png" alt=""> <a href="${bp}/guides/intro">intro</a>\n<p>${'Lorem ipsum dolor sit amet. '.repeat(40)}</p>`,
    );
  }
  const urls = ['', '/guides/intro', '/guides/', ...(plant ? ['/old-page'] : [])];
  files['sitemap.xml'] =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
      .map((u) => `  <url><loc>https://${DOMAIN}${bp}${u || '/'}</loc></url>`)
      .join('\n')}\n</urlset>\n`;
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  if (!plant) return [];
  return [
    { page: 'sitemap.xml', target: `https://${DOMAIN}${bp}/old-page`, kind: 'missing-sitemap-entry' },
    { page: CSS, target: `${bp}/fonts/missing.woff2`, kind: 'missing-asset' },
    { page: 'guides/intro.html', target: `${bp}/guides/missing`, kind: 'broken-link' },
    { page: 'guides/intro.html', target: '../images/missing.png', kind: 'missing-asset' },
    { page: 'guides/intro.html', target: `${bp}/images/logo@3x.png`, kind: 'missing-asset' },
    { page: 'guides/intro.html', target: `${bp}/guides%2Fintro`, kind: 'unsafe-path' },
    ...(bp !== '' ? [{ page: 'guides/intro.html', target: '/guides/intro', kind: 'outside-base-path' as const }] : []),
  ];
}
