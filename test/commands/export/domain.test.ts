import { describe, expect, it } from 'vitest';
import { normaliseDomain } from '../../../src/export-flows/domain.js';
import { UsageError } from '../../../src/errors.js';
import { exitCodeOf } from '../../../src/cli/cli-errors.js';

describe('normaliseDomain', () => {
  it.each([
    ['a bare hostname', 'docs.example.com', 'docs.example.com', undefined],
    ['a Mintlify subdomain', 'acme.mintlify.app', 'acme.mintlify.app', undefined],
    ['a hostname with inner hyphens and digits', 'docs-v2.my-company9.io', 'docs-v2.my-company9.io', undefined],
    [
      'an https URL of the site root',
      'https://docs.example.com/',
      'docs.example.com',
      'using the hostname docs.example.com (from "https://docs.example.com/")',
    ],
    [
      'an http URL without a slash',
      'http://docs.example.com',
      'docs.example.com',
      'using the hostname docs.example.com (from "http://docs.example.com")',
    ],
    [
      'a hostname with a trailing slash',
      'docs.example.com/',
      'docs.example.com',
      'using the hostname docs.example.com (from "docs.example.com/")',
    ],
    [
      'upper-case letters',
      'HTTPS://Docs.Example.COM',
      'docs.example.com',
      'using the hostname docs.example.com (from "HTTPS://Docs.Example.COM")',
    ],
    ['surrounding spaces (trimmed quietly)', '  docs.example.com ', 'docs.example.com', undefined],
    [
      'an internationalised name',
      'bücher.example.com',
      'xn--bcher-kva.example.com',
      'using the hostname xn--bcher-kva.example.com (from "bücher.example.com")',
    ],
  ])('accepts %s', (_name, input, hostname, note) => {
    expect(normaliseDomain(input)).toEqual(note === undefined ? { hostname } : { hostname, note });
  });

  it.each([
    ['an empty string', '', 'it is empty'],
    ['a port', 'docs.example.com:8080', 'it has a port'],
    ['a URL with a port', 'https://docs.example.com:443/', 'it has a port'],
    ['a path', 'docs.example.com/docs', 'it has a path, query or fragment'],
    ['a URL with a path', 'https://docs.example.com/guides/intro', 'it has a path, query or fragment'],
    ['a query string', 'https://docs.example.com/?ref=1', 'it has a path, query or fragment'],
    ['a fragment', 'https://docs.example.com/#top', 'it has a path, query or fragment'],
    ['a space inside', 'docs example.com', 'it contains a space'],
    ['an empty label', 'docs..example.com', 'it has an empty label'],
    ['a trailing dot', 'docs.example.com.', 'it has an empty label'],
    ['a label over 63 characters', `${'a'.repeat(64)}.example.com`, 'is longer than 63 characters'],
    [
      'a name over 253 characters',
      `${Array(5).fill('a'.repeat(60)).join('.')}.com`,
      'it is longer than 253 characters',
    ],
    ['an underscore', 'my_docs.example.com', 'the label "my_docs" may hold only letters, digits and inner hyphens'],
    ['a leading hyphen', '-docs.example.com', 'the label "-docs" may hold'],
    ['a single label', 'localhost', 'it has no dot'],
    ['an IP address', '192.168.1.10', 'it is an IP address'],
    ['credentials', 'https://user:pw@docs.example.com/', 'it contains a user name or password'],
    ['another scheme', 'ftp://docs.example.com', '"ftp://" is not a web address'],
    ['a URL with no host', 'https:///', 'it has no hostname'],
  ])('refuses %s as a usage error', (_name, input, why) => {
    let thrown: unknown;
    try {
      normaliseDomain(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect(exitCodeOf(thrown)).toBe(2);
    expect((thrown as UsageError).message).toContain(`"${input}" is not a domain the export API accepts: `);
    expect((thrown as UsageError).message).toContain(why);
  });
});
