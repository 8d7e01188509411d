// Every JSON the CLI prints goes through here. JSON.stringify escapes C0 but leaves DEL, the C1
// controls (U+0080-U+009F) and U+2028/U+2029 raw: U+009B is a CSI introducer to several terminals,
// so a page title from the API could move the cursor or rewrite the screen of whoever reads
// `--json` on a terminal, and U+2028/U+2029 end a line for JavaScript consumers of JSON lines. Each
// is written as \uXXXX instead: the same value once parsed. Outside a string JSON is plain ASCII, so
// any such character stringify leaves is inside one and may be escaped there.

const UNSAFE = /[\u007f-\u009f\u2028\u2029]/g;

/** JSON.stringify(value, null, indent), with every character above written as \uXXXX. */
export function jsonText(value: unknown, indent?: number): string {
  return escapeUnsafe(JSON.stringify(value, null, indent));
}

/** The same escaping over JSON text already made (a document assembled piece by piece). */
export function escapeUnsafe(json: string): string {
  return json.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
