import { createRandom, deterministicHex, pick, pseudoRandomBytes } from './prng.js';

/** The static site the sandbox pretends to have exported. */
export interface BundleSpec {
  files: number;
  bytesPerFile: number;
}

export const DEFAULT_BUNDLE: BundleSpec = { files: 40, bytesPerFile: 3000 };

export interface SiteFile {
  path: string;
  kind: 'html' | 'css' | 'js' | 'png';
}

const SECTIONS = ['guides', 'api-reference/endpoints', 'concepts', 'integrations/ci', 'changelog'];
const WORDS = [
  'deploy',
  'project',
  'search',
  'analytics',
  'webhook',
  'agent',
  'export',
  'bundle',
  'navigation',
  'theme',
  'component',
  'snippet',
  'endpoint',
  'request',
  'response',
  'token',
  'domain',
  'preview',
  'version',
  'locale',
  'sidebar',
  'anchor',
  'callout',
  'accordion',
  'schema',
  'playground',
  'the',
  'a',
  'with',
  'and',
  'for',
  'your',
  'docs',
  'page',
  'configure',
  'install',
  'update',
  'static',
];

/** The file list is a pure function of the spec (and seed, for hashed asset names). */
export function siteLayout(spec: BundleSpec, seed: number): SiteFile[] {
  const count = Math.max(1, Math.floor(spec.files));
  const hash = (label: string) => deterministicHex(seed, label, 8);
  const files: SiteFile[] = [
    { path: 'index.html', kind: 'html' },
    { path: 'guides/getting-started.html', kind: 'html' },
    { path: `_next/static/css/app-${hash('app.css')}.css`, kind: 'css' },
    { path: `_next/static/chunks/main-${hash('main.js')}.js`, kind: 'js' },
    { path: 'images/logo.png', kind: 'png' },
  ];
  for (let i = 0; files.length < count; i++) {
    // Mostly pages, with assets sprinkled in, spread over nested directories as a real export is.
    const section = SECTIONS[i % SECTIONS.length] ?? 'guides';
    const group = `group-${Math.floor(i / 50)}`;
    switch (i % 10) {
      case 3:
        files.push({ path: `_next/static/css/${hash(`css${i}`)}.css`, kind: 'css' });
        break;
      case 6:
        files.push({ path: `_next/static/chunks/pages/${hash(`js${i}`)}.js`, kind: 'js' });
        break;
      case 9:
        files.push({ path: `images/${section.split('/')[0]}/figure-${i}.png`, kind: 'png' });
        break;
      default:
        files.push({ path: `${section}/${group}/page-${i}.html`, kind: 'html' });
    }
  }
  return files.slice(0, count);
}

export function countPages(spec: BundleSpec, seed: number): number {
  return siteLayout(spec, seed).filter((file) => file.kind === 'html').length;
}

/**
 * Content of one file, about `bytesPerFile` long. Half readable text, half base64 of random bytes,
 * so a big bundle compresses to a realistic size instead of collapsing to almost nothing.
 */
export function siteFileContent(file: SiteFile, spec: BundleSpec, seed: number): Buffer {
  const size = Math.max(0, Math.floor(spec.bytesPerFile));
  if (file.kind === 'png') {
    const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const body = pseudoRandomBytes(seed, file.path, Math.max(0, size - signature.length));
    return Buffer.concat([signature, body]);
  }
  const random = createRandom(seed, file.path);
  const title =
    file.path
      .replace(/\.[a-z]+$/, '')
      .split('/')
      .pop() ?? 'page';
  const [open, close, wrapText, wrapData] = TEMPLATES[file.kind](title);
  let text = '';
  const textBudget = Math.floor(size / 2) - open.length;
  while (text.length < textBudget) {
    const sentence = Array.from({ length: 6 + Math.floor(random() * 10) }, () => pick(random, WORDS));
    text += `${sentence.join(' ')}. `;
  }
  const head = open + wrapText(text.trimEnd());
  const remaining = size - Buffer.byteLength(head) - close.length - wrapData('').length;
  const data = pseudoRandomBytes(seed, file.path, Math.max(0, Math.floor((remaining * 3) / 4))).toString('base64');
  return Buffer.from(head + wrapData(data) + close);
}

type Template = (title: string) => [string, string, (text: string) => string, (data: string) => string];

const TEMPLATES: Record<Exclude<SiteFile['kind'], 'png'>, Template> = {
  html: (title) => [
    `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main>\n`,
    '</main></body></html>\n',
    (text) => `<p>${text}</p>\n`,
    (data) => `<script type="application/json" id="__page_data">"${data}"</script>\n`,
  ],
  css: (title) => [
    `/* ${title} */\n`,
    '',
    (text) => `.doc-content::before { content: "${text}"; }\n`,
    (data) => `.inline-font { src: url("data:font/woff2;base64,${data}"); }\n`,
  ],
  js: (title) => [
    `"use strict";/* ${title} */\n`,
    '',
    (text) => `var messages = ${JSON.stringify(text)};\n`,
    (data) => `var payload = "${data}";\n`,
  ],
};
