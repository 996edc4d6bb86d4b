/**
 * `paylink payment create --brand ideal|sofort|giropay|eps|paypal` and `paylink pay <paymentId>` on the bank
 * and wallet pages (issue 23, item 13): real CLI processes against a real sandbox and a real merchant
 * server at returnUrl; each payment's final result is read back through the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';

const BIZ = 'bank-cli';
const sb = useSandbox();

let cwd: string;
let merchant: Server;
let merchantUrl: string;
const merchantHits: string[] = [];

function paylink(args: string[]): Promise<CliRun> {
  return runCli([...args, '--base-url', sb.url, '--business-id', BIZ], { cwd, timeoutMs: 20_000 });
}

/** Creates a payment of `brand` with the CLI and returns its id and page. */
async function create(brand: string, extra: string[] = []): Promise<{ id: string; page: string }> {
  const run = await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--brand', brand, ...extra, '--json']);
  expect(run.code, run.stderr).toBe(0);
  expect(run.json.result).toBe(2);
  return { id: run.json.body.transaction.id, page: run.json.body.redirect.url };
}

/** The payment as the API answers it now. */
async function readBack(id: string): Promise<any> {
  return (await sb.get(`/gateway/v3/payments/${id}?businessId=${BIZ}`)).body;
}

beforeAll(async () => {
  cwd = mkdtempSync(join(tmpdir(), 'paylink-bank-cli-'));
  merchant = createServer((req, res) => {
    merchantHits.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
  });
  await new Promise<void>((resolve) => merchant.listen(0, '127.0.0.1', resolve));
  merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => merchant.close(() => resolve()));
  rmSync(cwd, { recursive: true, force: true });
});

describe('paylink payment create and pay on bank and wallet pages', () => {
  it('creates an iDEAL payment without a card, then pay --outcome approved presses Approve, lands on returnUrl?id= and the API reads 0 Ok', async () => {
    const { id, page } = await create('ideal', ['--return-url', `${merchantUrl}/back?order=7`, '--issuer', 'INGBNL2A']);
    expect(page).toBe(`${sb.url}/gateway/v3/web/bank/${id}`);
    const run = await paylink(['pay', id, '--outcome', 'approved', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({
      kind: 'payment',
      id,
      page: 'bank',
      pageUrl: page,
      expectedResult: 0,
      asExpected: true,
      returnUrl: `${merchantUrl}/back?order=7&id=${id}`,
      merchant: { status: 200 },
    });
    expect(run.json.steps).toEqual([{ action: 'approve', url: page, status: 303, location: `${merchantUrl}/back?order=7&id=${id}` }]);
    expect(merchantHits).toContain(`/back?order=7&id=${id}`);
    const read = await readBack(id);
    expect([read.result, read.body.bank.name, read.body.bank.issuerId, typeof read.body.bank.iban]).toEqual([0, 'ING', 'INGBNL2A', 'string']);
    expect(run.json.status.result).toBe(0);
    // The CLI's own read agrees.
    const got = await paylink(['payment', 'get', id, '--json']);
    expect([got.code, got.json.result]).toEqual([0, 0]);
  });

  it('pay --outcome cancelled presses Cancel on a Sofort bank page: exit 0, and the API reads -10 with code 3011', async () => {
    const { id } = await create('sofort', ['--return-url', `${merchantUrl}/sofort`]);
    const run = await paylink(['pay', id, '--outcome', 'cancelled']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Played the customer on payment ${id}`);
    expect(run.stdout).toMatch(/Bank page:\s+http:\/\/127\.0\.0\.1:\d+\/gateway\/v3\/web\/bank\//);
    expect(run.stdout).toMatch(/Pressed Cancel:\s+HTTP 303 -> returnUrl/);
    expect(run.stdout).toMatch(/Merchant said:\s+HTTP 200/);
    expect(run.stdout).toMatch(/As asked:\s+yes/);
    const read = await readBack(id);
    expect([read.result, read.body.error.code]).toEqual([-10, 3011]);
  });

  it('pay --outcome failed presses Make it fail on the PayPal wallet page: exit 0, and the API reads -2 with code 3006', async () => {
    const { id, page } = await create('paypal', ['--return-url', `${merchantUrl}/paypal`]);
    expect(page).toBe(`${sb.url}/gateway/v3/web/wallet/${id}`);
    const run = await paylink(['pay', id, '--outcome', 'failed', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ kind: 'payment', page: 'wallet', expectedResult: -2, asExpected: true, payment: { id, result: -2 } });
    const read = await readBack(id);
    expect([read.result, read.body.error.code]).toEqual([-2, 3006]);
  });

  it('approves by default without a terminal, and without a returnUrl reports what the page then shows', async () => {
    const { id } = await create('eps');
    const run = await paylink(['pay', id, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.returnUrl).toBeUndefined();
    expect(run.json.steps[0]).toMatchObject({ action: 'approve', status: 303, state: 'result', message: 'The payment is settled: Ok (result 0).' });
    expect((await readBack(id)).result).toBe(0);
  });

  it('picks the bank an iDEAL page offers first when the merchant sent no issuer, as a browser submits the untouched choice', async () => {
    const { id, page } = await create('ideal');
    const html = await (await fetch(page)).text();
    const first = /<select[^>]*name="issuerId"[^>]*>\s*<option value="([^"]+)"/.exec(html)?.[1];
    expect(first, 'the page asks for the bank').toBeDefined();
    const run = await paylink(['pay', id, '--outcome', 'approved', '--json']);
    expect([run.code, run.json?.asExpected], run.stderr).toEqual([0, true]);
    const read = await readBack(id);
    expect([read.result, read.body.bank.issuerId]).toEqual([0, first]);
  });

  it("exits 3 with the page's words when the payment was settled already, and the result stays as it was", async () => {
    const { id } = await create('giropay');
    expect((await paylink(['pay', id, '--outcome', 'cancelled'])).code).toBe(0);
    const again = await paylink(['pay', id, '--outcome', 'approved']);
    expect(again.code).toBe(3);
    expect(again.stderr).toContain(
      `The bank page of payment ${id} offers no buttons (HTTP 200, state result): Giropay: payment not completed. The payment is settled: Customer processing error (result -10).`,
    );
    expect((await readBack(id)).result).toBe(-10);
  });

  it('refuses card outcomes and card flags on a bank page (exit 2, naming what it offers), and leaves the payment pending', async () => {
    const { id } = await create('ideal');
    // `declined` is the bank page's Decline button (pay-pages.test.ts); `3ds` is a card's outcome only.
    const threeDs = await paylink(['pay', id, '--outcome', '3ds']);
    expect(threeDs.code).toBe(2);
    expect(threeDs.stderr).toContain('--outcome: a bank or wallet page offers approved, cancelled, failed, declined; "3ds" is not one of them');
    const card = await paylink(['pay', id, '--card', '4111111111111111', '--cvv', '123']);
    expect(card.code).toBe(2);
    expect(card.stderr).toContain('--card, --cvv have no place there. Use --outcome approved|cancelled|failed|declined.');
    expect((await readBack(id)).result).toBe(2);
  });

  it('refuses a card with a bank brand at creation, naming the flags, and says how to play the page', async () => {
    const run = await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--brand', 'ideal', '--outcome', 'approved']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'iDEAL takes no card (it is paid on its bank page): --outcome has no place here. Create it, then play the page: paylink pay <paymentId> --outcome approved|cancelled|failed.',
    );
  });

  it('refuses payment create for SEPA Direct Debit (6010), pointing at paylink api and body.bank (exit 2)', async () => {
    const run = await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--brand', '6010']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'SEPA Direct Debit debits a bank account this command does not take: send it with paylink api POST /gateway/v3/payments and body.bank {iban, accountHolderName}',
    );
  });

  it('says a settled card payment waits on no page (exit 3)', async () => {
    const created = await paylink(['payment', 'create', '--amount', '10', '--currency', 'EUR', '--json']);
    const id = created.json.body.transaction.id;
    const run = await paylink(['pay', id, '--payment']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`Payment ${id} waits on no page the customer could use: it is brand 1010, Ok (result 0).`);
  });

  it('names the bank and wallet outcomes in pay --help, with an example', async () => {
    const run = await paylink(['pay', '--help']);
    expect(run.stdout).toContain('A bank or wallet payment (iDEAL, Sofort, Giropay, EPS, PayPal) takes --outcome approved');
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('cancelled (Cancel, -10), failed (Make it fail, -2) or declined (Decline, -4)');
    expect(run.stdout).toContain('paylink pay 7a9d... --outcome cancelled');
    const create = await paylink(['payment', 'create', '--help']);
    expect(create.stdout).toContain('--brand ideal --return-url');
  });
});
