/**
 * `paylink open` for any id (issue 31, item 20): a payment waiting for the customer opens the page it waits
 * on (3-D Secure, card form, bank, wallet), any other payment and a token their dashboard page. The printed
 * URL is loaded in a real Chromium to see it is that page.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const BIZ = 'open-any';
let browser: Browser;

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const card = (number: string) => ({ number, cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' });

async function payment(transaction: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await sb.post('/gateway/v3/payments', {
    action: 'payment',
    header: { businessId: BIZ },
    // 4: a bank or wallet payment read before a button is pressed stays pending (docs/api.md).
    body: { transaction: { amount: 4, currencyCode: 'EUR', trackingCode: uniqueCode('open'), ...transaction }, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return (res.body as { body: { id: string } }).body.id;
}

async function open(id: string) {
  const run = await runCli(['open', id, '--print', '--json', '--base-url', sb.url, '--business-id', BIZ]);
  expect(run.code, run.stderr + run.stdout).toBe(0);
  return run.json as { kind: string; id: string; page: string; url: string; opened: boolean };
}

/** The title and text Chromium shows at `url`. */
async function shown(url: string): Promise<string> {
  const page = await browser.newPage();
  try {
    const answer = await page.goto(url);
    expect(answer?.status()).toBe(200);
    return `${await page.title()}\n${await page.locator('body').innerText()}`;
  } finally {
    await page.close();
  }
}

describe.runIf(hasChromium)('paylink open <any id>', () => {
  it('opens the page a pending payment waits on: 3-D Secure, the card form, the bank, the wallet', async () => {
    const threeDs = await payment({ brandId: 1010 }, { card: card('4000000000003220') });
    const form = await payment({ brandId: 1010, returnUrl: 'https://shop.example/done' });
    const bank = await payment({ brandId: 3010 }, { bank: {} });
    const wallet = await payment({ brandId: 4010 });
    const expected: Array<[string, RegExp, RegExp]> = [
      [threeDs, /\/3ds\//, /3-D Secure|1234/i],
      [form, /\/web\/payments\//, /card number/i],
      [bank, /\/web\/bank\//, /iDEAL|bank/i],
      [wallet, /\/web\/wallet\//, /PayPal|wallet/i],
    ];
    for (const [id, path, text] of expected) {
      const result = await open(id);
      expect(result).toMatchObject({ kind: 'payment', id, page: 'customer', opened: false });
      expect(result.url).toMatch(path);
      expect(result.url).toContain(id);
      expect(await shown(result.url)).toMatch(text);
    }
  });

  it("opens a settled payment's and a token's dashboard page", async () => {
    const paid = await payment({ brandId: 1010 }, { card: card('4111111111111111') });
    const result = await open(paid);
    expect(result).toMatchObject({ kind: 'payment', page: 'dashboard', url: `${sb.url}/__sandbox/dashboard/payments/${paid}` });
    expect(await shown(result.url)).toContain(paid);

    const made = await sb.post('/gateway/v3/tokens', { header: { businessId: BIZ }, body: { card: card('4111111111111111') } });
    expect(made.status, made.text).toBe(200);
    const token = (made.body as { body: { token: string } }).body.token;
    const opened = await open(token);
    expect(opened).toMatchObject({ kind: 'token', page: 'dashboard', url: `${sb.url}/__sandbox/dashboard/tokens/${token}` });
    expect(await shown(opened.url)).toContain(token);
  });

  it("does not open another business's payment", async () => {
    const paid = await payment({ brandId: 1010 }, { card: card('4111111111111111') });
    const run = await runCli(['open', paid, '--print', '--json', '--base-url', sb.url, '--business-id', 'someone-else']);
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain('/__sandbox/dashboard/payments');
  });
});
