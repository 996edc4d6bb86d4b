/**
 * Spawned `node bin/paylink.js` against a real sandbox (and a real merchant server for returnUrl): every
 * command with `--json`, stdout parsed as exactly one JSON document, exit codes checked.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const BIN = fileURLToPath(new URL('../../bin/paylink.js', import.meta.url));
const sb = useSandbox();
const secured = useSandbox({ credentials: [{ username: 'merchant', password: 's3cret', businessIds: ['shop-1'] }] });

let cwd: string;
let merchant: Server;
let merchantUrl: string;
const merchantHits: string[] = [];

/** Runs the CLI without a TTY (CI=1), in a temp folder, against the test sandbox unless told otherwise. */
function paylink(args: string[], options: { env?: Record<string, string>; baseUrl?: string | null; dir?: string } = {}): Promise<CliRun> {
  const base = options.baseUrl === null ? [] : ['--base-url', options.baseUrl ?? sb.url];
  return runCli([...args, ...base], { cwd: options.dir ?? cwd, ...(options.env ? { env: options.env } : {}), timeoutMs: 20_000 });
}

/** Asserts exit code and that stdout is one JSON document; returns it. */
function ok(run: CliRun, code = 0): any {
  expect({ code: run.code, stderr: run.stderr }).toMatchObject({ code });
  expect(run.json, `stdout is one JSON document: ${run.stdout}`).toBeDefined();
  return run.json;
}

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'paylink-cli-'));
  merchant = createServer((req, res) => {
    merchantHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/shop/return`;
});

afterAll(async () => {
  await new Promise((resolve) => merchant.close(resolve));
  rmSync(cwd, { recursive: true, force: true });
});

async function createLink(...extra: string[]): Promise<string> {
  const created = ok(await paylink(['link', 'create', '--amount', '12.50', '--currency', 'EUR', '--return-url', merchantUrl, '--json', ...extra]));
  return created.body.link.linkId as string;
}

describe('paylink CLI as a spawned process', () => {
  it('runs create -> pay (approve) -> follow -> status for a link, reaching the real merchant each time', async () => {
    const created = ok(
      await paylink([
        'link',
        'create',
        '--amount',
        '12.50',
        '--currency',
        'eur',
        '--brand',
        'visa,1020',
        '--tracking-code',
        'order-cli-1',
        '--return-url',
        merchantUrl,
        '--json',
      ]),
    );
    expect(created).toMatchObject({
      result: 0,
      description: 'Success',
      body: { link: { brandIds: [1010, 1020] }, transaction: { amount: 12.5, currencyCode: 'EUR', trackingCode: 'order-cli-1' } },
    });
    const linkId = created.body.link.linkId as string;

    const paid = ok(await paylink(['pay', linkId, '--outcome', 'approved', '--json']));
    expect(paid).toMatchObject({
      kind: 'link',
      id: linkId,
      state: 'PAID',
      asExpected: true,
      merchant: { status: 200 },
      payment: { result: 0 },
      card: { lastFourDigits: '1111' },
    });
    expect(JSON.stringify(paid)).not.toContain('4111111111111111');
    expect(paid.returnUrl).toBe(`${merchantUrl}?linkId=${linkId}&id=${paid.payment.id}`);
    expect(merchantHits).toContain(`/shop/return?linkId=${linkId}&id=${paid.payment.id}`);

    const followed = ok(await paylink(['follow', linkId, '--json']));
    expect(followed).toMatchObject({ kind: 'link', id: linkId, state: 'PAID', source: 'last-redirect', url: paid.returnUrl, merchant: { status: 200 } });
    expect(merchantHits.filter((hit) => hit.includes(linkId))).toHaveLength(2);

    const status = ok(await paylink(['status', linkId, '--json']));
    expect(status).toMatchObject({
      kind: 'link',
      state: 'PAID',
      result: 0,
      description: 'Completed',
      amount: 12.5,
      currencyCode: 'EUR',
      trackingCode: 'order-cli-1',
    });
    expect(status.attempts).toEqual([expect.objectContaining({ id: paid.payment.id, result: 0, lastFourDigits: '1111' })]);
    expect(status.envelope.body.payments).toHaveLength(1);

    const again = await paylink(['pay', linkId, '--json']);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/offers no payment form.*PAID/);
    expect(again.json.error.exitCode).toBe(3);
  });

  it('treats a decline asked for as success, and the decline button as a DECLINEDBYCUSTOMER redirect without a payment id', async () => {
    const linkId = await createLink();
    const declined = ok(await paylink(['pay', linkId, '--outcome', 'declined', '--json']));
    expect(declined).toMatchObject({
      state: 'READY',
      asExpected: true,
      expectedResult: -4,
      payment: { result: -4 },
      steps: [{ action: 'pay', status: 200, state: 'form' }],
    });
    expect(declined.steps[0].message).toMatch(/attempts? left/);

    const button = ok(await paylink(['pay', linkId, '--decline', '--json']));
    expect(button).toMatchObject({ state: 'DECLINEDBYCUSTOMER', asExpected: true, returnUrl: `${merchantUrl}?linkId=${linkId}`, merchant: { status: 200 } });

    const status = ok(await paylink(['status', linkId, '--link', '--json']));
    expect(status.state).toBe('DECLINEDBYCUSTOMER');
    expect(status.attempts.map((a: { result: number }) => a.result)).toEqual([-4]);
  });

  it('exits 3 when the outcome is not the one asked for (a card outside the offered brands)', async () => {
    const linkId = await createLink('--brand', 'mastercard');
    const run = await paylink(['pay', linkId, '--card', '4111 1111 1111 1111', '--json']);
    expect(run.code).toBe(3);
    expect(run.json).toMatchObject({ asExpected: false, state: 'READY' });
    expect(run.stderr).toMatch(/did not end as asked/);
  });

  it('answers the 3-D Secure challenge with 1234 by default and cancels it with --3ds-cancel', async () => {
    const first = await createLink();
    const approved = ok(await paylink(['pay', first, '--outcome', '3ds', '--json']));
    expect(approved).toMatchObject({ state: 'PAID', asExpected: true, payment: { result: 0 } });
    expect(approved.steps.map((s: { action: string }) => s.action)).toEqual(['pay', '3ds-submit']);
    expect(approved.steps[0].location).toMatch(/\/gateway\/v3\/web\/3ds\//);

    const second = await createLink();
    const cancelled = ok(await paylink(['pay', second, '--outcome', '3ds', '--3ds-cancel', '--json']));
    expect(cancelled).toMatchObject({ state: 'READY', asExpected: true, expectedResult: -10, payment: { result: -10 } });
  });

  it('saves the card of an INQUIRE checkout with --save-card, shows the token in status, and pays with it', async () => {
    const created = ok(
      await paylink(['checkout', 'create', '--amount', '20', '--currency', 'EUR', '--tokenize', 'inquire', '--return-url', merchantUrl, '--json']),
    );
    expect(created).toMatchObject({ result: 2, description: 'Pending', body: { checkout: { tokenize: 'INQUIRE' } } });
    const checkoutId = created.body.checkout.checkoutId as string;

    const paid = ok(await paylink(['pay', checkoutId, '--save-card', '--json']));
    expect(paid).toMatchObject({ kind: 'checkout', state: 'PAID', asExpected: true, merchant: { status: 200 } });
    expect(paid.payment.token).toMatch(/^[0-9a-f-]{36}$/);
    expect(paid.returnUrl).toBe(`${merchantUrl}?checkoutId=${checkoutId}&id=${paid.payment.id}`);

    const status = ok(await paylink(['status', checkoutId, '--json']));
    expect(status).toMatchObject({ kind: 'checkout', state: 'PAID', token: paid.payment.token });
    const got = ok(await paylink(['checkout', 'get', checkoutId, '--json']));
    expect(got).toMatchObject({ result: 0, description: 'Completed' });
    expect(got.body.payments[0].body.token.token).toBe(paid.payment.token);
    const byCode = ok(await paylink(['checkout', 'get', '--tracking-code', created.body.transaction.trackingCode, '--json']));
    expect(byCode.body.checkout.checkoutId).toBe(checkoutId);

    const withToken = ok(await paylink(['payment', 'create', '--amount', '5', '--currency', 'EUR', '--token', paid.payment.token, '--json']));
    expect(withToken).toMatchObject({ result: 0, body: { transaction: { amount: 5 } } });
  });

  it('reads, finds by tracking code and cancels links, printing the API envelope unchanged', async () => {
    const linkId = await createLink('--tracking-code', 'order-cli-cancel', '--duration', 'pt30m', '--3ds', '--tokenize', 'true');
    const got = ok(await paylink(['link', 'get', linkId, '--json']));
    expect(got).toMatchObject({
      result: 0,
      description: 'Ok',
      header: { requestTimestamp: expect.any(String) },
      body: { link: { linkId, status: 'READY', threeDSecure: true, tokenize: 'TRUE' } },
    });
    const byCode = ok(await paylink(['link', 'get', '--tracking-code', 'order-cli-cancel', '--json']));
    expect(byCode.body.link.linkId).toBe(linkId);
    const cancelled = ok(await paylink(['link', 'cancel', linkId, '--json']));
    expect(cancelled.body.link.status).toBe('CANCELLED');
    const twice = await paylink(['link', 'cancel', linkId, '--json']);
    expect(twice.code).toBe(3);
    expect(twice.json).toMatchObject({ result: -8, body: { error: { code: expect.any(Number) } } });
    expect(twice.stderr).toMatch(/Business rule error \(-8, code \d+\): .*CANCELLED/);
    const opened = ok(await paylink(['open', linkId, '--print', '--json']));
    expect(opened).toEqual({ kind: 'link', id: linkId, page: 'hosted', url: `${sb.url}/gateway/v3/web/paymentlinks/${linkId}`, opened: false });
  });

  it('creates, reads, captures, refunds and cancels direct payments, and creates and reads tokens', async () => {
    const auth = ok(await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--authorize', '--tracking-code', 'order-cli-pay', '--json']));
    expect(auth).toMatchObject({ result: 0, body: { transaction: { action: 'authorize', trackingCode: 'order-cli-pay' } } });
    const id = auth.body.transaction.id as string;
    ok(await paylink(['payment', 'capture', id, '--amount', '4', '--json']));
    const refund = ok(await paylink(['payment', 'refund', id, '--json']));
    expect(refund.body.transaction).toMatchObject({ action: 'refund', amount: 4, parentId: id });
    const got = ok(await paylink(['payment', 'get', id, '--json']));
    expect(got.body.transaction).toMatchObject({ id, capturedAmount: 4, refundedAmount: 4 });
    const list = ok(await paylink(['payment', 'get', '--tracking-code', 'order-cli-pay', '--json']));
    expect(JSON.stringify(list)).toContain(id);
    const status = ok(await paylink(['status', id, '--json']));
    expect(status).toMatchObject({ kind: 'payment', id, result: 0, amount: 10 });

    const other = ok(await paylink(['payment', 'create', '--amount', '3', '--currency', 'EUR', '--authorize', '--json']));
    const voided = ok(await paylink(['payment', 'cancel', other.body.transaction.id, '--json']));
    expect(voided.body.transaction.action).toBe('cancel');

    const declined = ok(await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--outcome', 'declined', '--json']));
    expect(declined).toMatchObject({ result: -4 });
    const unasked = await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--card', '4000000000000002', '--json']);
    expect(unasked.code).toBe(3);
    expect(unasked.json).toMatchObject({ result: -4 });

    const token = ok(await paylink(['token', 'create', '--card', '5555 5555 5555 4444', '--json']));
    expect(token).toMatchObject({ result: 0, body: { displayHint: '************4444' } });
    const read = ok(await paylink(['token', 'get', token.body.token, '--json']));
    expect(read.body.token).toBe(token.body.token);
  });

  it('maps usage errors to 2 naming the flag, a stopped sandbox to 4 with how to start it, and never prompts without a TTY', async () => {
    const missing = await paylink(['link', 'create', '--currency', 'EUR', '--return-url', merchantUrl]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing --amount');
    expect(missing.stdout).toBe('');
    const bad = await paylink(['checkout', 'create', '--amount', 'ten', '--currency', 'EUR', '--return-url', merchantUrl, '--json']);
    expect(bad.code).toBe(2);
    expect(bad.json.error.message).toContain('--amount');
    const unknownOutcome = await paylink(['pay', 'x', '--outcome', 'lucky']);
    expect(unknownOutcome.code).toBe(2);
    expect(unknownOutcome.stderr).toContain('--outcome: unknown outcome "lucky"');
    const unknownFlag = await paylink(['link', 'create', '--colour', 'red', '--json']);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.json.error.message).toContain("unknown option '--colour'");

    const down = await paylink(['status', 'x', '--json'], { baseUrl: 'http://127.0.0.1:1' });
    expect(down.code).toBe(4);
    expect(down.stderr).toContain('Is the sandbox running? Start it with `paylink sandbox`');
    expect(down.json.error.exitCode).toBe(4);

    const notFound = await paylink(['status', '00000000-0000-4000-8000-000000000000', '--json']);
    expect(notFound.code).toBe(3);
    expect(notFound.json.body.error.code).toBe(1404);
  });

  it('takes its settings from flags over environment over paylink.config.json, and sends Basic credentials', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-cli-config-'));
    try {
      writeFileSync(join(dir, 'paylink.config.json'), JSON.stringify({ baseUrl: sb.url, businessId: 'from-config' }));
      const args = ['link', 'create', '--amount', '1', '--currency', 'EUR', '--return-url', merchantUrl, '--json'];
      const fromConfig = ok(await paylink(args, { dir, baseUrl: null }));
      const configLink = fromConfig.body.link.linkId as string;
      expect((await sb.get(`/gateway/v3/paymentlinks/${configLink}?businessId=from-config`)).status).toBe(200);
      const fromEnv = ok(await paylink(args, { dir, baseUrl: null, env: { PAYLINK_BUSINESS_ID: 'from-env' } }));
      expect((await sb.get(`/gateway/v3/paymentlinks/${fromEnv.body.link.linkId}?businessId=from-env`)).status).toBe(200);
      const fromFlag = ok(await paylink([...args, '--business-id', 'from-flag'], { dir, baseUrl: null, env: { PAYLINK_BUSINESS_ID: 'from-env' } }));
      expect((await sb.get(`/gateway/v3/paymentlinks/${fromFlag.body.link.linkId}?businessId=from-flag`)).status).toBe(200);
      const otherBusiness = await paylink(['link', 'get', configLink, '--json'], { dir, baseUrl: null, env: { PAYLINK_BUSINESS_ID: 'someone-else' } });
      expect(otherBusiness.code).toBe(3);

      const refused = await paylink(['link', 'get', configLink, '--business-id', 'shop-1', '--json'], { dir, baseUrl: secured.url });
      expect(refused.code).toBe(3);
      expect(refused.json.result).toBe(-6);
      const allowed = ok(
        await paylink(['link', 'create', '--amount', '1', '--currency', 'EUR', '--return-url', merchantUrl, '--business-id', 'shop-1', '--json'], {
          dir,
          baseUrl: secured.url,
          env: { PAYLINK_USERNAME: 'merchant', PAYLINK_PASSWORD: 's3cret' },
        }),
      );
      expect(allowed.result).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints bash and zsh completion scripts that name every command', async () => {
    const bash = await paylink(['completion', 'bash'], { baseUrl: null });
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -F _paylink paylink');
    for (const word of ['link', 'checkout', 'pay', 'follow', 'status', 'payment', 'token', 'open', 'sandbox', '--outcome', '--save-card'])
      expect(bash.stdout).toContain(word);
    const zsh = await paylink(['completion', 'zsh'], { baseUrl: null });
    expect(zsh.stdout.startsWith('#compdef paylink')).toBe(true);
    const fish = await paylink(['completion', 'powershell'], { baseUrl: null });
    expect(fish.code).toBe(2);
  });

  it('runs the full-flow shell script of docs/cli.md unchanged against a real sandbox', async () => {
    const doc = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const script = /<!-- full-flow-script[^>]*-->\s*```bash\n([\s\S]*?)```/.exec(doc)?.[1];
    expect(script, 'docs/cli.md has the full-flow script').toBeDefined();
    const dir = mkdtempSync(join(tmpdir(), 'paylink-flow-'));
    try {
      mkdirSync(join(dir, 'bin'));
      writeFileSync(join(dir, 'bin', 'paylink'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(dir, 'bin', 'paylink'), 0o755);
      writeFileSync(join(dir, 'flow.sh'), script!);
      const before = merchantHits.length;
      const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          'bash',
          [join(dir, 'flow.sh')],
          {
            cwd: dir,
            timeout: 40_000,
            env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}`, CI: '1', NO_COLOR: '1', PAYLINK_BASE_URL: sb.url, RETURN_URL: merchantUrl },
          },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(result.stdout).toContain('full flow done');
      expect(result.stdout).toMatch(/Status now:\s+PAID/);
      // pay and follow of the first link, decline button of the second, pay of the checkout.
      expect(merchantHits.length - before).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
