/**
 * `.dockerignore` as Docker applies it to the build context: each pattern
 * is matched (Go's filepath.Match, plus `**`) against a path relative to
 * the context root, and excluding a directory excludes everything in it.
 * Exceptions (`!pattern`) are not used here and are refused rather than
 * half-implemented.
 */
export interface DockerIgnore {
  readonly patterns: readonly string[];
  /** Whether `path` (relative to the context, `/`-separated) is left out of the context. */
  ignores(path: string): boolean;
}

function toRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i += 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

export function parseDockerIgnore(text: string): DockerIgnore {
  const patterns = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.replace(/^\/+/, '').replace(/\/+$/, ''));
  const exception = patterns.find((pattern) => pattern.startsWith('!'));
  if (exception !== undefined)
    throw new Error(`.dockerignore: exceptions (${exception}) are not understood by the container check`);
  const expressions = patterns.map(toRegExp);
  return {
    patterns,
    ignores(path) {
      const parts = path.split('/');
      // The path itself or any directory above it.
      return parts.some((_, index) => {
        const prefix = parts.slice(0, index + 1).join('/');
        return expressions.some((expression) => expression.test(prefix));
      });
    },
  };
}
