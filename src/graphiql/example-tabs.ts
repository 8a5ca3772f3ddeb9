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
 * later visit a stored tab's content (else GraphiQL adds a tab on every
 * reload).
 *
 * Which stored tab: yoga's page writes the open operation into the address
 * (`?query=`) a tenth of a second after every edit or tab switch, while
 * GraphiQL stores its tabs (and the variables) half a second after each
 * change. A reload soon after a switch therefore finds the address already
 * naming the new tab's operation and a stored state still naming the old
 * active tab; left alone, GraphiQL pairs the address's operation with the
 * old variables, matches no tab and adds one. So with `?query=` the stored
 * tab holding that operation is the one shown (the stored active one first),
 * and without it the stored active tab. A `?query=` that no stored tab holds
 * (a shared link, an edit younger than the stored state) is left to
 * GraphiQL: it opens a tab of its own for it.
 */
export function exampleTabsScript(examples: readonly ExampleOperation[]): string {
  return `(() => {
  const options = ${JSON.stringify(exampleTabOptions(examples))};
  let stored = null;
  try { stored = JSON.parse(localStorage.getItem(${JSON.stringify(STORED_TABS_KEY)}) ?? 'null'); } catch {}
  const tabs = stored && Array.isArray(stored.tabs) ? stored.tabs : [];
  const active = tabs[stored?.activeTabIndex];
  const linked = new URLSearchParams(location.search).get('query');
  const shown = linked ? [active, ...tabs].find((tab) => tab?.query === linked) : active;
  if (shown) {
    options.initialQuery = shown.query ?? '';
    options.initialVariables = shown.variables ?? '';
    options.initialHeaders = shown.headers ?? '';
  } else if (!linked && stored === null && options.defaultTabs.length > 0) {
    options.initialVariables = options.defaultTabs[0].variables ?? '';
  }
  self.${EXAMPLE_TABS_GLOBAL} = options;
})();
`;
}
