/**
 * How the sandbox's search routes compare a term with a name: case and
 * diacritics folded ("munchen" finds "München"), as a provider's search
 * engine does. The spec says only that `/search` finds IDs by name (4.3).
 */
export function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLocaleLowerCase('en').trim();
}
