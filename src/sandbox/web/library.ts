/**
 * Serves the browser library (docs/api.md, "Endpoints"): `/paymentlink/{version}/paymentlink-library.js` (global
 * `PaymentLink`) and `/checkout/{version}/checkout-library.js` (global `Checkout`), built by
 * web/library-scripts.ts; and the demo merchant page `/__sandbox/demo/{id}`.
 */
import { notFound } from '../errors.js';
import { Reply, type Route, type RouteRequest, type SandboxView } from '../http/router.js';
import { renderLibraryDemo } from '../../pages/library-demo.js';
import { GLOBAL_NAME, LIBRARY_VERSION, libraryPath, libraryText, servedLibrary, type LibraryKind } from './library-scripts.js';

export { LIBRARY_VERSION, libraryIntegrity, libraryPath, libraryScriptTag, servedLibrary, type LibraryKind, type ServedLibrary } from './library-scripts.js';

function serve(kind: LibraryKind) {
  return (req: RouteRequest): Reply => {
    const version = req.params['version']!;
    if (version !== LIBRARY_VERSION) {
      throw notFound(`Library version ${version} (this sandbox serves ${LIBRARY_VERSION}: ${libraryPath(kind)})`);
    }
    return new Reply(200, libraryText(req.sandbox.baseUrl, kind), {
      'content-type': 'application/javascript; charset=utf-8',
      // A version's text never changes for a given sandbox URL.
      'cache-control': 'public, max-age=31536000, immutable',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
    });
  };
}

function demo(req: RouteRequest): Reply {
  const id = req.params['id']!;
  const sandbox: SandboxView = req.sandbox;
  const kind: LibraryKind | undefined = sandbox.services.hosted.kindOf(id);
  if (kind === undefined) throw notFound(`Payment link or checkout ${id}`);
  const { path, integrity } = servedLibrary(sandbox.baseUrl, kind);
  return Reply.html(200, renderLibraryDemo({ id, kind, scriptUrl: `${sandbox.baseUrl}${path}`, integrity, globalName: GLOBAL_NAME[kind] }));
}

export const libraryRoutes: Route[] = [
  { route: 'library.paymentlink', handler: serve('paymentlink') },
  { route: 'library.checkout', handler: serve('checkout') },
  { route: 'library.demo', handler: demo },
];
