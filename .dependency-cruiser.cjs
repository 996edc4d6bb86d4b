/**
 * The layer rules of docs/architecture.md, checked by `npm test` (scripts/check-layers.mjs runs
 * dependency-cruiser with this file and fails on any violation).
 */
const SANDBOX = '^src/sandbox/';
/** Node modules that do I/O or talk to the network: the pure domain may use none of them. */
const IO_MODULES = '^(node:)?(fs|fs/promises|http|https|http2|net|tls|dgram|child_process|cluster|worker_threads|readline|dns)$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import circles: each folder has one job and depends on the ones below it. A circle through a lazy ' +
        "import() is not one: a command's spec (src/cli/commands/<verb>.spec.ts) imports its module only when " +
        'the command runs, and the module takes its types from the spec.',
      from: {},
      to: { circular: true, dependencyTypesNot: ['dynamic-import'], viaOnly: { dependencyTypesNot: ['dynamic-import'] } },
    },
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment:
        'domain/ holds the rules: it imports nothing of the transport, storage, pages or CLI. The error catalogue ' +
        '(errors.ts, data and one error type) is the one file outside it that it may use.',
      from: { path: `${SANDBOX}domain/` },
      to: {
        path: [`${SANDBOX}(store|http|api|web|admin|services)/`, `${SANDBOX}[^/]+\\.ts$`, '^src/(cli|pages)/'],
        pathNot: `${SANDBOX}errors\\.ts$`,
      },
    },
    {
      name: 'catalogue-is-pure',
      severity: 'error',
      comment: 'The error catalogue is data: it may use domain/ and nothing else of the project.',
      from: { path: `${SANDBOX}errors\\.ts$` },
      to: { path: '^src/', pathNot: `${SANDBOX}domain/` },
    },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment: 'domain/ does no I/O: no file system, network, database or HTTP framework.',
      from: { path: `${SANDBOX}domain/` },
      to: { path: [IO_MODULES, '^node_modules/(better-sqlite3|h3|listhen)/'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-store-holds-sql',
      severity: 'error',
      comment: 'Only store/ talks to SQLite.',
      from: { pathNot: `${SANDBOX}store/` },
      to: { path: '^node_modules/better-sqlite3/' },
    },
    {
      name: 'handlers-reach-store-through-services',
      severity: 'error',
      comment:
        'api/, web/ and admin/ parse, call one service (Sandbox.services) and reply: they import services/ and http/, ' +
        'never store/, not even its types (record types live in domain/, the few store shapes a handler shows are ' +
        're-exported by services/). test/unit/handler-layers.test.ts stops repository access through the Sandbox object.',
      from: { path: `${SANDBOX}(api|web|admin)/` },
      to: { path: `${SANDBOX}store/` },
    },
    {
      name: 'transport-reaches-store-through-services',
      severity: 'error',
      comment: 'http/ (router, guards, envelope) may name store/ types but uses no store/ code.',
      from: { path: `${SANDBOX}http/` },
      to: { path: `${SANDBOX}store/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'handlers-never-see-the-root',
      severity: 'error',
      comment:
        'Handlers and the transport get the services and a few facts (http/router.ts SandboxView), never the ' +
        'Sandbox of context.ts, the composition root that holds the repositories.',
      from: { path: `${SANDBOX}(api|web|admin|http)/` },
      to: { path: `${SANDBOX}context\\.ts$` },
    },
    {
      name: 'services-do-not-know-transport',
      severity: 'error',
      comment: 'services/ take records and repositories in and give records out: no HTTP, no pages.',
      from: { path: `${SANDBOX}services/` },
      to: { path: [`${SANDBOX}(http|api|web|admin)/`, '^src/(cli|pages)/', '^node_modules/(h3|listhen)/'] },
    },
    {
      name: 'pages-never-read-the-store',
      severity: 'error',
      comment: 'src/pages renders HTML from values it is given.',
      from: { path: '^src/pages/' },
      to: { path: [`${SANDBOX}(store|services|api|web|admin|http)/`, `${SANDBOX}context\\.ts$`, '^src/cli/'] },
    },
    {
      name: 'testing-uses-the-public-entry',
      severity: 'error',
      comment:
        'paylink/testing (src/testing) starts sandboxes through the programmatic entry (src/sandbox/index.ts) and ' +
        'talks HTTP to them; it may use the pure domain (test cards) and nothing else of the sandbox or the CLI.',
      from: { path: '^src/testing/' },
      to: { path: [SANDBOX, '^src/cli/', '^src/pages/'], pathNot: [`${SANDBOX}domain/`, `${SANDBOX}index\\.ts$`] },
    },
    {
      name: 'cli-reaches-sandbox-over-http',
      severity: 'error',
      comment:
        'The CLI talks HTTP to a sandbox (src/cli/client.ts). It may use the pure domain (test cards, brands) and, ' +
        'for `paylink sandbox` only, the programmatic entry src/sandbox/index.ts.',
      from: { path: '^src/cli/', pathNot: '^src/cli/commands/sandbox\\.ts$' },
      to: { path: SANDBOX, pathNot: `${SANDBOX}domain/` },
    },
    {
      name: 'sandbox-command-uses-the-entry-point',
      severity: 'error',
      comment: '`paylink sandbox` starts a sandbox through startSandbox, not through its internals.',
      from: { path: '^src/cli/commands/sandbox\\.ts$' },
      to: { path: SANDBOX, pathNot: [`${SANDBOX}index\\.ts$`, `${SANDBOX}domain/`] },
    },
    {
      name: 'cli-start-stays-light',
      severity: 'error',
      comment:
        "Every start (even --help) loads the commands' specs and the loop that registers them: they import a " +
        "command's module only with import() when it runs, and no package (only types of commander).",
      from: { path: ['^src/cli/(registry|command-spec|flags|flag-parsers)\\.ts$', '^src/cli/commands/[^/]+\\.spec\\.ts$'] },
      to: {
        path: ['^src/cli/commands/', '^src/cli/(ui|client|context|config|discovery|http|customer|options)\\.ts$', '^node_modules/'],
        pathNot: '^src/cli/commands/[^/]+\\.spec\\.ts$',
        dependencyTypesNot: ['dynamic-import', 'type-only'],
      },
    },
    {
      name: 'client-is-the-wire-contract-only',
      severity: 'error',
      comment:
        'src/client is the one typed API client (CLI, fixtures, trigger, paylink/testing): built on the route table and ' +
        'answer types of the pure domain; it sends through a transport it is given, so it imports nothing else.',
      from: { path: '^src/client/' },
      to: { path: [SANDBOX, '^src/(cli|testing|pages)/', '^node_modules/'], pathNot: `${SANDBOX}domain/` },
    },
    {
      name: 'sandbox-does-not-import-cli',
      severity: 'error',
      from: { path: SANDBOX },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    exclude: { path: '^src/pages/library/' },
  },
};
