import type { V1NewsArticle, V1NewsSource } from '../upstream/routes/v1.js';

/** An article carries its response's sources, so `source` resolves without another request. */
export interface V1NewsArticleWithSource {
  article: V1NewsArticle;
  sources: ReadonlyMap<number, V1NewsSource>;
}
