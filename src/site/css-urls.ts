// The URLs of CSS `url()` and `@import "..."`, found by a state machine fed chunk by chunk: each
// character is looked at once (a backtracking regex took minutes on a long run of `url(`), and no value is
// kept beyond URL_LIMIT characters (a stylesheet of hundreds of MB inside one `url(` stays small).
// A match that fails (`url(a b)`, an unclosed quote) is dropped, and scanning goes on where it failed.

/** A reference longer than this is not checked: it is reported as too long (or ignored when it is a `data:` URL). */
export const URL_LIMIT = 64 * 1024;

const enum State {
  /** looking for `url(` or `@import` */
  Scan,
  /** after `url(`, before its value */
  UrlStart,
  /** inside `url("...` or `url('...` */
  Quoted,
  /** inside `url(...` without quotes */
  Unquoted,
  /** after the value, before `)` */
  UrlEnd,
  /** after `@import`, before whitespace */
  ImportSpace,
  /** after `@import `, before its quote */
  ImportStart,
  /** inside `@import "...` */
  ImportQuoted,
}

const URL_OPEN = 'url(';
const IMPORT = '@import';

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';
}

export class CssUrlScanner {
  private state = State.Scan;
  /** how much of `url(` or `@import` has been seen */
  private matched = 0;
  /** which keyword `matched` counts */
  private keyword = URL_OPEN;
  private quote = '';
  /** the value so far, at most URL_LIMIT + 1 characters: longer means too long */
  private value = '';
  private valueLength = 0;

  /** `found` receives each URL as written (trimmed); one longer than URL_LIMIT arrives cut to URL_LIMIT + 1 characters. */
  constructor(private readonly found: (url: string) => void) {}

  write(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      switch (this.state) {
        case State.Scan:
          this.scan(c);
          break;
        case State.UrlStart:
          if (isSpace(c)) break;
          if (c === '"' || c === "'") {
            this.quote = c;
            this.state = State.Quoted;
          } else if (c === ')') {
            this.state = State.Scan; // url(): nothing to check
          } else {
            this.state = State.Unquoted;
            this.append(c);
          }
          break;
        case State.Quoted:
        case State.ImportQuoted:
          if (c === this.quote) {
            if (this.state === State.ImportQuoted) this.emit();
            else this.state = State.UrlEnd;
          } else {
            // Runs of plain characters are taken whole: one slice per run rather than one per character.
            const end = chunk.indexOf(this.quote, i);
            const stop = end === -1 ? chunk.length : end;
            this.append(chunk.slice(i, stop));
            i = stop - 1;
          }
          break;
        case State.Unquoted:
          if (c === ')') this.emit();
          else if (isSpace(c)) this.state = State.UrlEnd;
          else if (c === '"' || c === "'" || c === '(') this.fail(c);
          else this.append(c);
          break;
        case State.UrlEnd:
          if (c === ')') this.emit();
          else if (!isSpace(c)) this.fail(c);
          break;
        case State.ImportSpace:
          if (isSpace(c)) this.state = State.ImportStart;
          else this.fail(c);
          break;
        case State.ImportStart:
          if (isSpace(c)) break;
          if (c === '"' || c === "'") {
            this.quote = c;
            this.state = State.ImportQuoted;
          } else this.fail(c);
          break;
      }
    }
  }

  /** The end of the stylesheet: a value cut off there is reported only when it is already too long. */
  end(): void {
    if (this.state !== State.Scan && this.valueLength > URL_LIMIT) this.emit();
    this.reset();
  }

  private scan(c: string): void {
    const lower = c.toLowerCase();
    if (this.matched > 0 && this.keyword[this.matched] !== lower) this.matched = 0;
    if (this.matched === 0) {
      if (lower === 'u') this.keyword = URL_OPEN;
      else if (lower === '@') this.keyword = IMPORT;
      else return;
    }
    this.matched++;
    if (this.matched < this.keyword.length) return;
    this.matched = 0;
    this.state = this.keyword === URL_OPEN ? State.UrlStart : State.ImportSpace;
  }

  private append(text: string): void {
    const room = URL_LIMIT + 1 - this.value.length;
    if (room > 0) this.value += text.length > room ? text.slice(0, room) : text;
    this.valueLength += text.length;
  }

  private emit(): void {
    const url = this.value.trim();
    if (url !== '') this.found(url);
    this.reset();
  }

  /** Not a URL after all: start over, this character included (it may begin the next `url(`). */
  private fail(c: string): void {
    this.reset();
    this.scan(c);
  }

  private reset(): void {
    this.state = State.Scan;
    this.matched = 0;
    this.value = '';
    this.valueLength = 0;
  }
}

/** The URLs of a whole stylesheet or `style` attribute. */
export function cssUrls(css: string): string[] {
  const urls: string[] = [];
  const scanner = new CssUrlScanner((url) => urls.push(url));
  scanner.write(css);
  scanner.end();
  return urls;
}
