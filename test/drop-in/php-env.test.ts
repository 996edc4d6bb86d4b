/**
 * Issue 30's first "Done when": a PHP script with the provider's staging URL hard-coded, run with only the
 * environment `paylink env` prints (and PATH), creates a payment link, reads it and pays a card payment
 * against this folder's sandbox; the requests are in the sandbox's request log under the merchant's business.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { phpAvailable, startProxySandbox, type ProxySandbox } from '../helpers/drop-in.js';

const SCRIPT = new URL('./php/legacy-integration.php', import.meta.url).pathname;
const hasPhp = phpAvailable();

describe.runIf(hasPhp)('legacy PHP code with the staging host hard-coded, under `eval "$(paylink env)"`', () => {
  let sandbox: ProxySandbox;
  beforeAll(async () => {
    sandbox = await startProxySandbox(['--credentials', 'legacy:secret=legacy-php-shop']);
  });
  afterAll(async () => sandbox?.stop());

  it("names the proxy, a bundle with the system authorities plus paylink's, a PHP ini folder and the Chromium pin", async () => {
    const env = await sandbox.env();
    expect(env.variables.https_proxy).toBe(sandbox.entry.proxy);
    expect(env.variables.HTTPS_PROXY).toBe(sandbox.entry.proxy);
    expect(env.variables.NODE_EXTRA_CA_CERTS).toBe(sandbox.entry.authority);
    expect(env.variables.PHP_INI_SCAN_DIR).toMatch(/^:/);
    const bundle = readFileSync(env.bundle, 'utf8');
    expect(bundle).toContain(readFileSync(sandbox.entry.authority, 'utf8'));
    expect(bundle.split('BEGIN CERTIFICATE').length).toBeGreaterThan(10);
    expect(env.chromium.args).toContain(`--proxy-server=${sandbox.entry.proxy}`);
    expect(env.chromium.args).toContain(`--ignore-certificate-errors-spki-list=${env.chromium.spkiPin}`);
    expect(JSON.stringify(env)).not.toMatch(/PRIVATE KEY/);
  });

  it('creates, reads and pays through the proxy, and the sandbox logs it under the business', async () => {
    const env = await sandbox.env();
    const run = spawnSync('php', [SCRIPT], { env: { PATH: process.env.PATH, ...env.variables }, encoding: 'utf8', timeout: 30_000 });
    expect(run.status, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.link).toMatchObject({ status: 200, result: 0 });
    expect(out.link.url).toBe(`https://stag.checkout-web.dta.payvision.app/paymentlinks/${out.link.id}`);
    expect(out.read).toMatchObject({ status: 200, result: 0 });
    expect(out.payment).toMatchObject({ status: 200, result: 0 });
    const log = (await (await fetch(`${sandbox.entry.listen}/__sandbox/requests?businessId=legacy-php-shop`)).json()) as any;
    const seen = log.body.requests.map((r: { method: string; path: string }) => `${r.method} ${r.path}`);
    expect(seen).toEqual(expect.arrayContaining(['POST /gateway/v3/paymentlinks', `GET /gateway/v3/paymentlinks/${out.link.id}`, 'POST /gateway/v3/payments']));
  });

  it('without that environment the same script cannot reach the provider through paylink (nothing changes for others)', () => {
    const run = spawnSync('php', [SCRIPT], { env: { PATH: process.env.PATH, https_proxy: sandbox.entry.proxy }, encoding: 'utf8', timeout: 30_000 });
    // The proxy answers, but PHP does not trust paylink's authority without the ini folder.
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/certificate|SSL/i);
  });
});
