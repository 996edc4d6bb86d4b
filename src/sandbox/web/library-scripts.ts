/**
 * The browser library's scripts as a sandbox serves them (docs/api.md, "Endpoints"): one ES5 core wrapped per kind
 * with the sandbox's base URL built in, its versioned path and its Subresource Integrity hash. Apart from
 * the routes (web/library.ts) so the package's public entry can export `servedLibrary` and
 * `libraryScriptTag` with types that depend on nothing but Node's.
 *
 * The served text depends on the base URL (the public URL when set), so it is built once per base URL and
 * cached, and its Subresource Integrity hash is computed from those exact bytes.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { PACKAGE_VERSION, packageFile } from '../../package-files.js';
import { pathOf, ROUTES } from '../domain/routes.js';

export type LibraryKind = 'paymentlink' | 'checkout';

/** The package's three-part version: the only `{version}` the sandbox serves. */
export const LIBRARY_VERSION: string = PACKAGE_VERSION;

export const GLOBAL_NAME: Record<LibraryKind, string> = { paymentlink: 'PaymentLink', checkout: 'Checkout' };

/** The hosted pages' path patterns the library fills with an id (its `config.pages`), from the route table. */
export const LIBRARY_PAGES: Record<LibraryKind, string> = { paymentlink: ROUTES['hosted.link'].path, checkout: ROUTES['hosted.checkout'].path };

/** Where the ES5 core is built (`tsconfig.library.json`). */
const CORE_URL = packageFile('dist/library/library-core.js');

let core: string | undefined;

function libraryCore(): string {
  if (core === undefined) {
    try {
      core = readFileSync(CORE_URL, 'utf8');
    } catch (error) {
      throw new Error(`The browser library is not built (${CORE_URL.pathname} is missing): run \`npm run build\`.`, { cause: error });
    }
  }
  return core;
}

export interface ServedLibrary {
  /** Path under the sandbox, e.g. `/paymentlink/0.1.0/paymentlink-library.js`. */
  path: string;
  /** The script text, exactly as served. */
  text: string;
  /** `sha384-<base64>` of the served bytes, for the `integrity` attribute. */
  integrity: string;
}

// The one cache at module level in src/sandbox, kept on purpose: a pure function's results (same base URL and
// kind, same bytes and hash), which `servedLibrary` promises to hand out as one object (test/unit/library-es5);
// its keys are the base URLs this process serves under, which the Host check bounds.
const served = new Map<string, ServedLibrary>();

/** The library script a sandbox at `baseUrl` serves for `kind`: built once per base URL and kind. */
export function servedLibrary(baseUrl: string, kind: LibraryKind): ServedLibrary {
  const key = `${kind} ${baseUrl}`;
  let entry = served.get(key);
  if (entry === undefined) {
    const config = { baseUrl, sandbox: true, version: LIBRARY_VERSION, pages: LIBRARY_PAGES };
    // JSON is valid ES5 object syntax; `<` is escaped so the text is also safe inline in a <script>.
    const configText = JSON.stringify(config).replace(/</g, '\\u003c');
    const text =
      `/*! paylink ${GLOBAL_NAME[kind]} library ${LIBRARY_VERSION} (paylink sandbox at ${baseUrl.replace(/\*\//g, '* /')}) */\n` +
      `(function (window, document) {\n${libraryCore()}\n` +
      `window.${GLOBAL_NAME[kind]} = PaylinkLibrary.create(${configText}).${GLOBAL_NAME[kind]};\n` +
      `})(window, document);\n`;
    entry = { path: libraryPath(kind), text, integrity: `sha384-${createHash('sha384').update(text, 'utf8').digest('base64')}` };
    served.set(key, entry);
  }
  return entry;
}

/** The versioned path of a library script. */
export function libraryPath(kind: LibraryKind, version: string = LIBRARY_VERSION): string {
  return pathOf(kind === 'paymentlink' ? 'library.paymentlink' : 'library.checkout', { version });
}

/** The Subresource Integrity hash of the script a sandbox at `baseUrl` serves for `kind`. */
export function libraryIntegrity(baseUrl: string, kind: LibraryKind = 'paymentlink'): string {
  return servedLibrary(baseUrl, kind).integrity;
}

/** A ready-to-paste `<script>` tag (with `integrity`) for the library a sandbox at `baseUrl` serves. */
export function libraryScriptTag(baseUrl: string, kind: LibraryKind = 'paymentlink'): string {
  const { path, integrity } = servedLibrary(baseUrl, kind);
  return `<script src="${baseUrl}${path}" integrity="${integrity}" crossorigin="anonymous"></script>`;
}
