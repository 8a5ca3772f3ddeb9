/**
 * GraphiQL's first tabs: the example operations (examples/operations/), one
 * tab each with its variables, instead of yoga's stock welcome comment
 * (yoga leaves it out when `defaultTabs` is set). GraphiQL keeps its tabs in
 * the browser's storage, so these are what a first visit shows.
 *
 * They travel as a small script of their own (a content-hashed asset beside
 * the app), which keeps the page a few hundred bytes.
 */
import type { ExampleOperation } from './example-operations.js';

/** GraphiQL's `defaultTabs` entry (graphiql's TabDefinition). */
export interface ExampleTab {
  readonly query: string;
  readonly variables: string | null;
}

/** The GraphiQL options the script sets. */
export interface ExampleTabOptions {
  readonly defaultTabs: readonly ExampleTab[];
}

export function exampleTabOptions(examples: readonly ExampleOperation[]): ExampleTabOptions {
  return {
    defaultTabs: examples.map((example) => ({
      query: example.document,
      variables: example.variablesJson?.trim() ?? null,
    })),
  };
}

/** The global the page reads the options from (src/graphiql/page.ts). */
export const EXAMPLE_TABS_GLOBAL = 'sportsGraphExampleTabs';

/** Where GraphiQL 5 keeps its tabs in the browser (its storage namespace `graphiql`, key `tabState`). */
const STORED_TABS_KEY = 'graphiql:tabState';

/**
 * The script that hands the options to the page. GraphiQL 5 fills the
 * editors from `initialQuery` / `initialVariables` / `initialHeaders`, not
 * from the active tab, and adds a tab for them when no stored tab has that
 * content. So the script passes what should show: on a first visit the first
 * example's variables (else its operation would run without them); on a
 * later visit the stored active tab's content (else GraphiQL adds an empty
 * tab on every reload). A `?query=` link is left to GraphiQL: it opens a tab
 * of its own for it.
 */
export function exampleTabsScript(examples: readonly ExampleOperation[]): string {
  return `(() => {
  const options = ${JSON.stringify(exampleTabOptions(examples))};
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(${JSON.stringify(STORED_TABS_KEY)}) ?? 'null'); } catch {}
  if (!new URLSearchParams(location.search).has('query')) {
    const active = stored && Array.isArray(stored.tabs) ? stored.tabs[stored.activeTabIndex] : undefined;
    if (active) {
      options.initialQuery = active.query ?? '';
      options.initialVariables = active.variables ?? '';
      options.initialHeaders = active.headers ?? '';
    } else if (stored === null && options.defaultTabs.length > 0) {
      options.initialVariables = options.defaultTabs[0].variables ?? '';
    }
  }
  self.${EXAMPLE_TABS_GLOBAL} = options;
})();
`;
}
