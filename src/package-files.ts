/**
 * The package's own files: its package.json (the version) and what the build makes for the sandbox to serve
 * (the browser library, the hosted pages' script). The same code runs from `src/` (vitest), from tsc's
 * output in `dist/` (the package's exports) and from the bundled CLI in `dist/bundle/` (docs/architecture.md,
 * "The build"), so a path relative to the module differs between them: the package root is found once,
 * walking up from this module to paylink's package.json, and every file is named from there.
 */
import { readFileSync } from 'node:fs';

interface PackageRoot {
  /** The folder holding paylink's package.json, as a `file:` URL ending in `/`. */
  url: URL;
  version: string;
}

function findRoot(): PackageRoot {
  let dir = new URL('./', import.meta.url);
  for (;;) {
    let pkg: { name?: unknown; version?: unknown } | undefined;
    try {
      pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as typeof pkg;
    } catch {
      pkg = undefined;
    }
    if (pkg?.name === 'paylink' && typeof pkg.version === 'string') return { url: dir, version: pkg.version };
    const parent = new URL('../', dir);
    if (parent.href === dir.href) throw new Error(`paylink: no package.json of paylink above ${import.meta.url}`);
    dir = parent;
  }
}

const root = findRoot();

/** The package's version (package.json). */
export const PACKAGE_VERSION: string = root.version;

/** A file of the package, by its path from the package root (`dist/hosted/hosted.js`). */
export function packageFile(path: string): URL {
  return new URL(path, root.url);
}
