// A value outside a choice gets the nearest allowed ones suggested, as commander does for an unknown
// command or option but not for a choice (it says only "Allowed choices are ..."). Applied once to the
// whole tree (program.ts), so every choice, of an argument or an option, answers the same way.
import { InvalidArgumentError, type Command } from 'commander';

/** Wraps the parser of every choice in `command` and below it; the choices themselves stay (help, completions). */
export function suggestChoices(command: Command): void {
  for (const target of [...command.registeredArguments, ...command.options]) {
    const choices = target.argChoices;
    const parse = target.parseArg;
    if (!choices || !parse) continue;
    target.argParser((value: string, previous: unknown) => {
      try {
        return parse(value, previous);
      } catch (error) {
        if (!(error instanceof InvalidArgumentError)) throw error;
        const near = nearest(value, choices);
        if (near.length === 0) throw error;
        // The wording and the line of commander's own suggestion for an unknown command.
        throw new InvalidArgumentError(
          `${error.message}\n(Did you mean ${near.length === 1 ? near[0] : `one of ${near.join(', ')}`}?)`,
        );
      }
    });
  }
  for (const sub of command.commands) suggestChoices(sub);
}

/** A typo is a few edits away; further than that, or most of the word changed, is another word. */
const MAX_EDITS = 3;
const MIN_SIMILARITY = 0.4;

/** The choices fewest edits from `value` (case ignored), if close enough to be what was meant. */
export function nearest(value: string, choices: readonly string[]): string[] {
  const typed = value.toLowerCase();
  let best = Infinity;
  let found: string[] = [];
  for (const choice of choices) {
    const edits = editDistance(typed, choice.toLowerCase());
    const similarity = (Math.max(typed.length, choice.length) - edits) / Math.max(typed.length, choice.length);
    if (edits > MAX_EDITS || similarity <= MIN_SIMILARITY) continue;
    if (edits < best) [best, found] = [edits, [choice]];
    else if (edits === best) found.push(choice);
  }
  return found;
}

/** Insertions, deletions, substitutions and swaps of two neighbours (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}
