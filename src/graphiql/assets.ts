/**
 * GraphiQL as separate, content-hashed files instead of one 9 MB page.
 *
 * @graphql-yoga/render-graphiql ships its editor as strings (the app, its
 * stylesheet, three Monaco workers and a favicon data URL) that its own
 * renderer inlines into every page. Here each becomes a file whose name
 * carries a hash of its content, so a browser keeps it for good and a new
 * version is a new name. The module holding them (9 MB) is imported on the
 * first GraphiQL request, not at start.
 */
import { createHash } from 'node:crypto';
import { loadExampleOperations } from './example-operations.js';
import { exampleTabsScript } from './example-tabs.js';

export interface GraphiQLAsset {
  /** File name under the asset prefix, with its content hash: `graphiql-3f9a1c2e4b5d6a7f.js`. */
  readonly file: string;
  readonly contentType: string;
  readonly body: Buffer;
  /** Strong validator of `body` (the same hash as in the name). */
  readonly hash: string;
}

/** The files of one GraphiQL build, by role. */
export interface GraphiQLAssets {
  readonly app: GraphiQLAsset;
  readonly stylesheet: GraphiQLAsset;
  readonly favicon: GraphiQLAsset;
  /** The example operations as GraphiQL's first tabs (src/graphiql/example-tabs.ts). */
  readonly exampleTabs: GraphiQLAsset;
  /** Monaco's workers, by the label Monaco asks for (`getWorkerUrl(moduleId, label)`). */
  readonly workers: Readonly<Record<'editorWorkerService' | 'json' | 'graphql', GraphiQLAsset>>;
  byFile(file: string): GraphiQLAsset | undefined;
}

const JS = 'text/javascript; charset=utf-8';

function asset(stem: string, extension: string, contentType: string, body: Buffer): GraphiQLAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  return { file: `${stem}-${hash}.${extension}`, contentType, body, hash };
}

/** `data:<type>;base64,<data>` -> its type and bytes. */
function fromDataUrl(url: string): { type: string; bytes: Buffer } {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (match === null) throw new Error('render-graphiql favicon is not a base64 data URL');
  return { type: match[1] ?? 'application/octet-stream', bytes: Buffer.from(match[2] ?? '', 'base64') };
}

let loading: Promise<GraphiQLAssets> | undefined;

/** The assets, imported (and the example operations read) and hashed once per process, on first use. */
export function graphiqlAssets(): Promise<GraphiQLAssets> {
  loading ??= Promise.all([import('@graphql-yoga/render-graphiql/graphiql'), loadExampleOperations()]).then(
    ([source, examples]) => {
      const icon = fromDataUrl(source.favicon);
      const workers = {
        editorWorkerService: asset('editor.worker', 'js', JS, Buffer.from(source.editorWorkerService)),
        json: asset('json.worker', 'js', JS, Buffer.from(source.jsonWorker)),
        graphql: asset('graphql.worker', 'js', JS, Buffer.from(source.graphqlWorker)),
      };
      const assets = {
        app: asset('graphiql', 'js', JS, Buffer.from(source.js)),
        stylesheet: asset('graphiql', 'css', 'text/css; charset=utf-8', Buffer.from(source.css)),
        favicon: asset('favicon', icon.type === 'image/x-icon' ? 'ico' : 'bin', icon.type, icon.bytes),
        exampleTabs: asset('examples', 'js', JS, Buffer.from(exampleTabsScript(examples))),
        workers,
      };
      const files = new Map(
        [assets.app, assets.stylesheet, assets.favicon, assets.exampleTabs, ...Object.values(workers)].map((entry) => [
          entry.file,
          entry,
        ]),
      );
      return { ...assets, byFile: (file: string) => files.get(file) };
    },
  );
  return loading;
}
