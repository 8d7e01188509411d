// A small YAML reader for the workflow files the tests check (action.yml, docs/ci.md's blocks): block
// mappings and sequences, plain and quoted scalars, `|` and `>` block scalars, comments, and flow
// sequences of scalars. Anything else throws, so a test never reads a document wrongly in silence.
// (No YAML package is among the project's dependencies; GitHub's own reader is the real arbiter.)

type Yaml = string | Yaml[] | { [key: string]: Yaml } | null;

interface Line {
  indent: number;
  text: string;
  number: number;
}

export function parseYaml(source: string): Yaml {
  const raw = source.split('\n');
  const lines: Line[] = [];
  raw.forEach((text, i) => {
    const stripped = stripComment(text).trimEnd();
    if (stripped.trim() === '' || stripped.trim() === '---') lines.push({ indent: -1, text: '', number: i + 1 });
    else
      lines.push({ indent: stripped.length - stripped.trimStart().length, text: stripped.trimStart(), number: i + 1 });
  });
  const state = { pos: 0, raw };
  skipBlank(lines, state);
  if (state.pos >= lines.length) return null;
  const value = parseBlock(lines, state, lines[state.pos]!.indent);
  skipBlank(lines, state);
  if (state.pos < lines.length) throw new Error(`yaml: unexpected indentation at line ${lines[state.pos]!.number}`);
  return value;
}

function stripComment(text: string): string {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote) {
      if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      if (i === 0 || /[\s:[,-]/.test(text[i - 1]!)) quote = ch;
    } else if (ch === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return text.slice(0, i);
    }
  }
  return text;
}

function skipBlank(lines: Line[], state: { pos: number }) {
  while (state.pos < lines.length && lines[state.pos]!.indent < 0) state.pos++;
}

function parseBlock(lines: Line[], state: { pos: number; raw: string[] }, indent: number): Yaml {
  const first = lines[state.pos]!;
  return first.text === '-' || first.text.startsWith('- ')
    ? parseSequence(lines, state, indent)
    : parseMapping(lines, state, indent);
}

function parseSequence(lines: Line[], state: { pos: number; raw: string[] }, indent: number): Yaml[] {
  const items: Yaml[] = [];
  for (skipBlank(lines, state); state.pos < lines.length; skipBlank(lines, state)) {
    const line = lines[state.pos]!;
    if (line.indent < indent) break;
    if (line.indent > indent || !(line.text === '-' || line.text.startsWith('- ')))
      throw new Error(`yaml: expected "- " at line ${line.number}`);
    const rest = line.text.slice(1).trimStart();
    if (rest === '') {
      state.pos++;
      skipBlank(lines, state);
      items.push(parseBlock(lines, state, lines[state.pos]!.indent));
    } else if (/^[^'"[{][^:]*:(\s|$)/.test(rest) || /^["'][^"']*["']:(\s|$)/.test(rest)) {
      // `- key: value` opens a mapping whose keys sit where `key` does.
      const column = line.indent + (line.text.length - rest.length);
      lines[state.pos] = { indent: column, text: rest, number: line.number };
      items.push(parseMapping(lines, state, column));
    } else {
      state.pos++;
      items.push(scalar(rest, line.number));
    }
  }
  return items;
}

function parseMapping(lines: Line[], state: { pos: number; raw: string[] }, indent: number): { [key: string]: Yaml } {
  const map: { [key: string]: Yaml } = {};
  for (skipBlank(lines, state); state.pos < lines.length; skipBlank(lines, state)) {
    const line = lines[state.pos]!;
    if (line.indent < indent) break;
    if (line.indent > indent) throw new Error(`yaml: unexpected indentation at line ${line.number}`);
    const match = /^("[^"]*"|'[^']*'|[^:]+?):(?:\s+(.*))?$/.exec(line.text);
    if (!match) throw new Error(`yaml: expected "key: value" at line ${line.number}: ${line.text}`);
    const key = match[1]!.replace(/^["']|["']$/g, '');
    if (key in map) throw new Error(`yaml: duplicate key ${key} at line ${line.number}`);
    const rest = match[2]?.trim() ?? '';
    state.pos++;
    if (rest === '|' || rest === '>' || /^[|>][-+]?$/.test(rest)) {
      map[key] = blockScalar(lines, state, indent, rest);
    } else if (rest === '') {
      skipBlank(lines, state);
      const next = lines[state.pos];
      if (!next || next.indent < indent || (next.indent === indent && !next.text.startsWith('- '))) map[key] = null;
      else map[key] = parseBlock(lines, state, next.indent);
    } else {
      map[key] = scalar(rest, line.number);
    }
  }
  return map;
}

function blockScalar(lines: Line[], state: { pos: number; raw: string[] }, indent: number, style: string): string {
  const body: string[] = [];
  let blockIndent: number | undefined;
  while (state.pos < lines.length) {
    const line = lines[state.pos]!;
    const original = state.raw[line.number - 1]!;
    if (line.indent >= 0 && line.indent <= indent) break;
    if (original.trim() !== '') blockIndent ??= original.length - original.trimStart().length;
    body.push(original.trim() === '' ? '' : original.slice(blockIndent));
    state.pos++;
  }
  while (body.length > 0 && body[body.length - 1] === '') body.pop();
  const text = style.startsWith('>') ? body.join(' ') : body.join('\n');
  return style.endsWith('-') ? text : `${text}\n`;
}

function scalar(text: string, number: number): Yaml {
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`yaml: unclosed double quote at line ${number}`);
    return JSON.parse(text) as string;
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`yaml: unclosed single quote at line ${number}`);
    return text.slice(1, -1).replaceAll("''", "'");
  }
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new Error(`yaml: unsupported flow sequence at line ${number}`);
    const inner = text.slice(1, -1).trim();
    return inner === '' ? [] : inner.split(',').map((part) => scalar(part.trim(), number));
  }
  if (text.startsWith('{') || text.startsWith('&') || text.startsWith('*') || text.startsWith('!'))
    throw new Error(`yaml: unsupported syntax at line ${number}: ${text}`);
  return text;
}
