// The static export API wants the deployment's bare hostname (`docs.example.com`). People paste the
// address from their browser, so a plain http(s) URL of the site's root is accepted and reduced to its
// hostname (with a note), and everything else that is not a hostname is refused before anything is sent.
import { domainToASCII } from 'node:url';
import { UsageError } from '../errors.js';

export interface NormalisedDomain {
  hostname: string;
  /** Set when the input was not already the bare hostname: says what was sent instead. */
  note?: string;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const URL_PREFIX = /^([a-z][a-z0-9+.-]*):\/\/(.*)$/i;
const EXAMPLE = 'a hostname such as docs.example.com';

/** `pathsName`: how the caller names the option that picks pages, for the message refusing a path. */
export function normaliseDomain(input: string, pathsName = '--path'): NormalisedDomain {
  const given = input.trim();
  if (given === '') throw refuse(input, 'it is empty');
  if (/\s/.test(given)) throw refuse(input, 'it contains a space');
  const host = hostPart(given, input, pathsName);
  const hostname = checkHostname(host, input);
  return hostname === given ? { hostname } : { hostname, note: `using the hostname ${hostname} (from "${input}")` };
}

/** The host of `https://host/` (or `host/`), refusing anything that would be lost by keeping it alone. */
function hostPart(given: string, input: string, pathsName: string): string {
  let rest = given;
  const url = URL_PREFIX.exec(given);
  if (url) {
    const scheme = url[1]!.toLowerCase();
    if (scheme !== 'http' && scheme !== 'https') throw refuse(input, `"${scheme}://" is not a web address`);
    rest = url[2]!;
  }
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const tail = end === -1 ? '' : rest.slice(end);
  if (authority.includes('@')) throw refuse(input, 'it contains a user name or password');
  if (authority.includes(':'))
    throw refuse(input, 'it has a port; the API exports the deployment on its standard port, so drop it');
  if (tail !== '' && tail !== '/') {
    throw refuse(
      input,
      `it has a path, query or fragment; exports cover the whole deployment (use ${pathsName} to pick pages)`,
    );
  }
  return authority;
}

function checkHostname(host: string, input: string): string {
  if (host === '') throw refuse(input, 'it has no hostname');
  // Internationalised names go to the API in their ASCII (punycode) form.
  const ascii = /^[\x00-\x7f]*$/.test(host) ? host.toLowerCase() : domainToASCII(host);
  if (ascii === '') throw refuse(input, 'it is not a valid internationalised domain name');
  if (ascii.length > 253) throw refuse(input, 'it is longer than 253 characters');
  const labels = ascii.split('.');
  if (labels.length < 2)
    throw refuse(input, 'it has no dot; a deployment domain looks like docs.example.com or acme.mintlify.app');
  for (const label of labels) {
    if (label === '') throw refuse(input, 'it has an empty label (two dots in a row, or a leading or trailing dot)');
    if (label.length > 63) throw refuse(input, `the label "${label.slice(0, 20)}..." is longer than 63 characters`);
    if (!LABEL.test(label)) {
      throw refuse(input, `the label "${label}" may hold only letters, digits and inner hyphens`);
    }
  }
  if (/^\d+$/.test(labels[labels.length - 1]!)) throw refuse(input, "it is an IP address; use the deployment's domain");
  return ascii;
}

function refuse(input: string, why: string): UsageError {
  return new UsageError(`"${input}" is not a domain the export API accepts: ${why}; give ${EXAMPLE}`);
}
