/**
 * The GraphiQL page: a few hundred bytes that name the hashed asset files
 * (src/graphiql/assets.ts) instead of inlining them, with yoga's GraphiQL
 * options (title, endpoint, subscription protocol) as data, over the example
 * tabs' options (src/graphiql/example-tabs.ts).
 */
import type { GraphiQLOptions } from 'graphql-yoga';
import type { GraphiQLAssets } from './assets.js';
import { EXAMPLE_TABS_GLOBAL } from './example-tabs.js';

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** JSON that can sit inside a <script> element: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

export function graphiqlPage(options: GraphiQLOptions | undefined, assets: GraphiQLAssets, prefix: string): string {
  const url = (file: string): string => `${prefix}/${file}`;
  const workers = Object.fromEntries(
    Object.entries(assets.workers).map(([label, worker]) => [label, url(worker.file)]),
  );
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(options?.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${url(assets.favicon.file)}" />
    <link rel="stylesheet" href="${url(assets.stylesheet.file)}" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run this app.</noscript>
    <div id="root"></div>
    <script>
      const workers = ${scriptJson(workers)};
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => workers[label] };
    </script>
    <script src="${url(assets.app.file)}"></script>
    <script src="${url(assets.exampleTabs.file)}"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), { ...self.${EXAMPLE_TABS_GLOBAL}, ...${scriptJson(options ?? {})} });
    </script>
  </body>
</html>
`;
}
