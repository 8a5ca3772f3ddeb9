/**
 * Files the gateway reads at run time (the SDL, the widget pages, the
 * example operations). From the source tree (tsx, vitest) they are at their
 * source paths; a build (scripts/build.ts) copies them next to its bundle,
 * where every module of the bundle shares this module's `import.meta.url`.
 */
import { fileURLToPath } from 'node:url';

/** Where this module runs from: its own source file, or a bundle in `dist/`. */
const fromSource = import.meta.url.endsWith('/src/runtime-files.ts');

const locations = {
  /** `schema/*.graphql`. */
  schema: fromSource ? '../schema/' : './schema/',
  /** `src/widgets/odds/*` from the source tree, `dist/widgets/odds/*` in a build. */
  oddsWidget: './widgets/odds/',
  /** `src/generated/` (codegen's output) from the source tree, `dist/generated/` in a build. */
  generated: './generated/',
  /** `examples/operations/*.graphql`: the documented example operations, GraphiQL's first tabs. */
  exampleOperations: fromSource ? '../examples/operations/' : './examples/operations/',
} as const;

/** Absolute path of a runtime directory, with a trailing slash. */
export function runtimeDir(name: keyof typeof locations): string {
  return fileURLToPath(new URL(locations[name], import.meta.url));
}
