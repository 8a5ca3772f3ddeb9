/**
 * Names as the scorer compares them. Providers spell one club differently
 * (fixtures/counterparts.ts shows each way): with or without diacritics
 * ("München" / "Munchen"), with or without a legal-form affix ("SC
 * Freiburg" / "Freiburg"), with punctuation ("St. Louis" / "St Louis").
 * Normalising removes exactly those differences and nothing else: a short
 * name ("Man Utd") or a new name ("Athletic Club") stays different, and the
 * scorer treats it as weaker evidence.
 */

/** Legal-form and club-type affixes that one provider writes and another leaves out. */
const AFFIXES: ReadonlySet<string> = new Set(['fc', 'sc', 'cf', 'afc', 'ac', 'sv', 'fk', 'sk', 'jk', 'cd', 'club']);

/** Lower case, no diacritics, punctuation as spaces, affixes dropped, words in order. */
export function normaliseName(name: string): string {
  const words = fold(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .split(' ')
    .filter((word) => word !== '');
  const kept = words.filter((word) => !AFFIXES.has(word));
  // A name that is only affixes ("FC") keeps them: an empty name would equal every other.
  return (kept.length > 0 ? kept : words).join(' ');
}

/** Case and diacritics folded ("Beşiktaş" -> "besiktas"). */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en');
}

/**
 * The one word a version's search is asked for: the longest word of the
 * normalised name (the most distinctive; searches match substrings, so
 * "munchen" finds "FC Bayern München"). One word, not the whole name: a
 * provider that spells the rest differently still answers.
 */
export function searchTerm(name: string): string {
  const words = normaliseName(name).split(' ');
  return words.reduce((longest, word) => (word.length > longest.length ? word : longest), '');
}

/**
 * How closely two names agree, 0..1: 1 when their normalised forms are
 * equal; 0.7 when one's words are all among the other's ("Atletico Madrid"
 * in "Atletico de Madrid"); 0.4 when they share a word of four letters or
 * more ("Athletic Bilbao" / "Athletic Club"); 0 otherwise.
 */
export function nameAgreement(a: string, b: string): number {
  const x = normaliseName(a);
  const y = normaliseName(b);
  if (x === y) return 1;
  const xs = new Set(x.split(' '));
  const ys = new Set(y.split(' '));
  const within = (small: Set<string>, large: Set<string>): boolean => [...small].every((word) => large.has(word));
  if (within(xs, ys) || within(ys, xs)) return 0.7;
  return [...xs].some((word) => word.length >= 4 && ys.has(word)) ? 0.4 : 0;
}

/** Countries compared as names are: "Türkiye" and "Turkiye" agree. */
export function sameCountry(a: string, b: string): boolean {
  return normaliseName(a) === normaliseName(b);
}
