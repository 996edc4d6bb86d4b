/**
 * The browser library's scripts as a sandbox serves them (docs/api.md, "Endpoints"): one ES5 core wrapped per kind
 * with the sandbox's base URL built in, its versioned path and its Subresource Integrity hash. Apart from
 * the routes (web/library.ts) so the package's public entry can export `servedLibrary` and
 * `libraryScriptTag` with types that depend on nothing but Node's.
 *
 * The served text depends on the base URL (the public URL when set): it is built from the core and that URL
 * when asked for (a string concatenation), and its Subresource Integrity hash is computed from those exact
 * bytes. Nothing is cached: the module keeps no state.
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

/**
 * The ES5 core, read once when this module loads (a constant: the text a process serves, and the one every
 * integrity hash it prints is computed from, never changes under it), or why it could not be read.
 */
const CORE: { readonly text: string } | { readonly error: Error } = readCore();

function readCore(): { text: string } | { error: Error } {
  try {
    return { text: readFileSync(CORE_URL, 'utf8') };
  } catch (error) {
    return { error: new Error(`The browser library is not built (${CORE_URL.pathname} is missing): run \`npm run build\`.`, { cause: error }) };
  }
}

function libraryCore(): string {
  if ('error' in CORE) throw CORE.error;
  return CORE.text;
}

export interface ServedLibrary {
  /** Path under the sandbox, e.g. `/paymentlink/0.1.0/paymentlink-library.js`. */
  path: string;
  /** The script text, exactly as served. */
  text: string;
  /** `sha384-<base64>` of the served bytes, for the `integrity` attribute. */
  integrity: string;
}

/** The text of the library script a sandbox at `baseUrl` serves for `kind`: the same for the same arguments. */
export function libraryText(baseUrl: string, kind: LibraryKind): string {
  const config = { baseUrl, sandbox: true, version: LIBRARY_VERSION, pages: LIBRARY_PAGES };
  // JSON is valid ES5 object syntax; `<` is escaped so the text is also safe inline in a <script>.
  const configText = JSON.stringify(config).replace(/</g, '\\u003c');
  return (
    `/*! paylink ${GLOBAL_NAME[kind]} library ${LIBRARY_VERSION} (paylink sandbox at ${baseUrl.replace(/\*\//g, '* /')}) */\n` +
    `(function (window, document) {\n${libraryCore()}\n` +
    `window.${GLOBAL_NAME[kind]} = PaylinkLibrary.create(${configText}).${GLOBAL_NAME[kind]};\n` +
    `})(window, document);\n`
  );
}

/** The library script a sandbox at `baseUrl` serves for `kind`: its path, its text and that text's hash. */
export function servedLibrary(baseUrl: string, kind: LibraryKind): ServedLibrary {
  const text = libraryText(baseUrl, kind);
  return { path: libraryPath(kind), text, integrity: `sha384-${createHash('sha384').update(text, 'utf8').digest('base64')}` };
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
