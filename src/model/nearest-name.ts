/**
 * The enum value a client most likely meant, for mistakes graphql-js's own
 * suggestions (edit distance against the whole name) do not reach: a word
 * of the name (`HOCKEY` for `ICE_HOCKEY`), another version's slug
 * (`ice-hockey`, `water-polo`, `waterpolo`), lower case, a typo inside a
 * word (`hokey`).
 */

/** Upper case, words joined by `_`: `ice-hockey` -> `ICE_HOCKEY`. */
const canonical = (name: string): string =>
  name
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

const compact = (name: string): string => name.replace(/_/g, '');

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Edits allowed in a word of `length` letters: one per three, none below three letters (`MA` is no typo of anything). */
const typoBound = (length: number): number => (length < 3 ? 0 : Math.max(1, Math.floor(length / 3)));

/**
 * Every word of the input a typo of a word of the name (`HOKEY` of
 * `ICE_HOCKEY`'s `HOCKEY`): the name with the fewest edits, then the shortest.
 */
function nearestByWords(words: readonly string[], names: readonly string[]): string | undefined {
  let best: { name: string; edits: number } | undefined;
  for (const name of names) {
    const theirs = canonical(name).split('_');
    let edits = 0;
    for (const word of words) {
      const nearest = Math.min(...theirs.map((their) => editDistance(word, their)));
      if (nearest > typoBound(word.length)) {
        edits = Number.POSITIVE_INFINITY;
        break;
      }
      edits += nearest;
    }
    if (edits === Number.POSITIVE_INFINITY) continue;
    if (best === undefined || edits < best.edits || (edits === best.edits && name.length < best.name.length))
      best = { name, edits };
  }
  return best?.name;
}

/** The best of `names` for `input`, or undefined when none is close enough to suggest. */
export function nearestName(input: string, names: readonly string[]): string | undefined {
  const wanted = canonical(input);
  if (wanted === '') return undefined;
  const exact = names.find((name) => canonical(name) === wanted || compact(canonical(name)) === compact(wanted));
  if (exact !== undefined) return exact;
  // Every word of the input is a word of the name: the shortest such name is the least added.
  const words = wanted.split('_');
  const containing = names.filter((name) => {
    const theirs = canonical(name).split('_');
    return words.every((word) => theirs.includes(word));
  });
  if (containing.length > 0) return containing.reduce((best, name) => (name.length < best.length ? name : best));
  const misspelt = nearestByWords(words, names);
  if (misspelt !== undefined) return misspelt;
  // A typo: a few edits on the name without its separators.
  const bound = Math.max(1, Math.floor(compact(wanted).length / 3));
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(compact(wanted), compact(canonical(name)));
    if (distance <= bound && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
