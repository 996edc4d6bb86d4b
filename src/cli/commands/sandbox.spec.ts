/** `paylink sandbox`: start the local sandbox. Its module is the only one that loads the sandbox. */
import { command, type Later } from '../command-spec.js';
import { flag } from '../flags.js';
import { DEFAULT_DETERMINISTIC_SEED, PORT_ENV, SANDBOX_DEFAULTS } from '../defaults.js';
import { DEFAULT_LOG_MAX_BYTES } from '../../sandbox/domain/defaults.js';
import { DEFAULT_SIGNATURE_HEADER } from '../../sandbox/domain/webhook-signature.js';
import { collect } from '../flag-parsers.js';

export const sandbox = command({
  name: 'sandbox',
  description: 'Start the local payment API sandbox (API v3, hosted pages, browser library, dashboard)',
  // It serves; it never calls a sandbox: no connection, API client or journal to load.
  context: 'ui',
  needs: [],
  options: {
    // No commander default: without --port, PAYLINK_PORT decides (defaults.ts `defaultPort`).
    port: flag('-p, --port <port>', `port to listen on, 0 picks a free one (env ${PORT_ENV}; default ${SANDBOX_DEFAULTS.port})`),
    host: flag('-H, --host <host>', 'interface to listen on', { default: '127.0.0.1' }),
    db: flag('--db <path>', 'SQLite database file, or :memory:', { default: SANDBOX_DEFAULTS.db }),
    https: flag('--https', "serve HTTPS with a certificate from paylink's local authority (localhost and the provider's hosts)"),
    cert: flag('--cert <file>', 'TLS certificate (PEM) for HTTPS'),
    key: flag('--key <file>', 'TLS private key (PEM) for HTTPS'),
    publicUrl: flag('--public-url <url>', 'public base URL (tunnel or reverse proxy) used in redirect URLs and the library'),
    credentials: flag('--credentials <file|user:pass=biz,...>', 'require HTTP Basic credentials owning the business ids'),
    // The sandbox's own token, which it then requires: not the client's `--admin-token` (flags.ts).
    adminToken: flag('--admin-token <token>', 'token for /__sandbox/ and the dashboard (generated when not on loopback)'),
    seed: flag('--seed <file>', 'load a fixture file once listening (repeatable; docs/fixtures.md)', { parse: collect }),
    deterministic: flag('--deterministic [seed]', `reproducible ids and approval codes (default seed "${DEFAULT_DETERMINISTIC_SEED}")`),
    tunnel: flag('--tunnel', 'open a public URL through a tunnel (needs network; falls back to local)'),
    requestLogMb: flag(
      '--request-log-mb <megabytes>',
      `size the request log is held to, oldest rows pruned first (default ${DEFAULT_LOG_MAX_BYTES / (1024 * 1024)})`,
    ),
    allowedHost: flag('--allowed-host <host>', 'another host name requests may use (repeatable; .example.test for subdomains too); others get 421', {
      parse: collect,
    }),
    webhookSecret: flag('--webhook-secret <secret>', 'secret webhook events are signed with (env PAYLINK_WEBHOOK_SECRET; default: generated once, stored)'),
    webhookRetry: flag('--webhook-retry <schedule>', 'webhook retry schedule: standard (5 s to 6 h) or fast (about 5 s, for tests)', { default: 'standard' }),
    webhookHeader: flag('--webhook-header <name>', 'request header carrying the event signature', { default: DEFAULT_SIGNATURE_HEADER }),
    proxy: flag('--proxy <port>', "also an HTTP proxy on 127.0.0.1:<port> that answers the provider's hosts and refuses all others (docs/drop-in.md)"),
  },
  examples: [
    'paylink sandbox',
    'paylink sandbox --port 9000 --db :memory:',
    'paylink sandbox --https --public-url https://my-tunnel.example.com',
    'paylink sandbox --credentials merchant:secret=shop-1,shop-2',
    'paylink sandbox --db :memory: --deterministic --seed fixtures/paid-link.json',
    'paylink sandbox --tunnel',
    'paylink sandbox --proxy 8418     # then in another shell: eval "$(paylink env)"',
  ],
  run: (): Later => import('./sandbox.js').then((m) => m.sandboxCommand),
});
