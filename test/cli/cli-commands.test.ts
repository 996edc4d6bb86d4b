/**
 * The CLI's command functions called directly with injected IO and prompt answers, against a real sandbox:
 * prompts on a (pretend) terminal, no prompts without one, colour rules, configuration precedence, and the
 * hosted-page scraping `paylink pay` relies on.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/cli/client.js';
import { completionScript } from '../../src/cli/commands/completion.js';
import { checkoutCreate } from '../../src/cli/commands/checkout.js';
import { follow } from '../../src/cli/commands/follow.js';
import { openPage } from '../../src/cli/commands/open.js';
import { linkCreate } from '../../src/cli/commands/link.js';
import { pay } from '../../src/cli/commands/pay.js';
import { status } from '../../src/cli/commands/status.js';
import { resolveConnection } from '../../src/cli/config.js';
import { makeContext } from '../../src/cli/context.js';
import { alertText, hiddenInput, pageState, playCustomer } from '../../src/cli/customer.js';
import { ApiResponseError, UnreachableError, UsageError } from '../../src/cli/errors.js';
import { buildProgram } from '../../src/cli/index.js';
import { parseBrand, parseBrands } from '../../src/cli/options.js';
import { Ui, type Prompter } from '../../src/cli/ui.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const cwd = mkdtempSync(join(tmpdir(), 'paylink-cli-fn-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

/** A stream that keeps what was written; `isTTY` as asked. */
function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, write: (chunk: string) => (chunks.push(String(chunk)), true), text: () => chunks.join('') } as unknown as NodeJS.WritableStream & {
    isTTY: boolean;
    text(): string;
  };
}

/** Answers questions from a queue and records them; fails the test if asked more than it was given. */
function scripted(answers: unknown[]): Prompter & { asked: string[] } {
  const asked: string[] = [];
  const next = (message: string) => {
    asked.push(message);
    if (answers.length === 0) throw new Error(`unexpected question: ${message}`);
    return Promise.resolve(answers.shift());
  };
  return {
    asked,
    input: (q) => next(q.message) as Promise<string>,
    select: (q) => next(q.message) as Promise<never>,
    checkbox: (q) => next(q.message) as Promise<never[]>,
  };
}

function setup(options: { interactive?: boolean; json?: boolean; answers?: unknown[]; tty?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const stdout = sink(options.tty ?? false);
  // stderr stays a non-TTY: a spinner needs a real terminal (cursor control); colour follows stdout.
  const stderr = sink(false);
  const prompter = scripted(options.answers ?? []);
  const ui = new Ui({ stdout, stderr }, { json: options.json, interactive: options.interactive, prompter, env: options.env ?? {} });
  const ctx = makeContext(ui, { baseUrl: sb.url, businessId: 'fn-biz' }, { env: {}, cwd });
  return { ctx, stdout, stderr, prompter };
}

describe('CLI command functions', () => {
  it('asks for currency, amount, return URL and brands on a terminal and creates the link from the answers', async () => {
    const { ctx, prompter, stdout } = setup({ interactive: true, answers: ['eur', '12.50', 'http://localhost:3000/done', [1020, 1030]] });
    const envelope = await linkCreate({}, { duration: 'P2D' }, ctx);
    // The currency comes first so the amount is checked against its decimals as it is typed.
    expect(prompter.asked).toEqual(['Currency', 'Amount (EUR)', 'Return URL (where the customer goes after paying)', 'Card brands offered']);
    expect(envelope.body.link.brandIds).toEqual([1020, 1030]);
    expect(envelope.body.transaction).toMatchObject({ amount: 12.5, currencyCode: 'EUR' });
    expect(stdout.text()).toContain('Payment link created');
    expect(stdout.text()).toContain(envelope.body.link.linkId);
  });

  it('never asks without a terminal: a missing value is a usage error naming its flag, and brands default to every card brand', async () => {
    const { ctx, prompter } = setup({ interactive: false });
    await expect(linkCreate({}, { amount: '5', currency: 'EUR' }, ctx)).rejects.toThrow(
      new UsageError('missing --return-url (no terminal to ask on: pass --return-url).'),
    );
    await expect(checkoutCreate({}, { currency: 'EUR', returnUrl: 'https://shop.example/r' }, ctx)).rejects.toThrow(/missing --amount/);
    const created = await checkoutCreate({}, { amount: '5', currency: 'EUR', returnUrl: 'https://shop.example/r' }, ctx);
    expect(created.body.checkout.brandIds).toEqual([1010, 1011, 1013, 1015, 1020, 1023, 1030, 1040, 1050, 1060, 1090, 1210]);
    expect(prompter.asked).toEqual([]);
  });

  it('lets a person pick the outcome of `paylink pay`, and pays with the approve card when nobody is there', async () => {
    const person = setup({ interactive: true, answers: [{ decline: true }] });
    const link = await linkCreate({}, { amount: '3', currency: 'EUR', returnUrl: 'http://127.0.0.1:9/closed', brand: ['visa'] }, setup().ctx);
    const declined = await pay({ id: link.body.link.linkId }, {}, person.ctx);
    expect(person.prompter.asked).toEqual(['What should the customer do?']);
    expect(declined).toMatchObject({ state: 'DECLINEDBYCUSTOMER', asExpected: true, merchant: { error: expect.any(String) } });
    expect(person.stdout.text()).toMatch(/Merchant said:\s+nothing: .*that is fine/);

    const script = setup({ json: true });
    const checkout = await checkoutCreate({}, { amount: '3', currency: 'EUR', returnUrl: 'http://127.0.0.1:9/closed' }, setup().ctx);
    const paid = await pay({ id: checkout.body.checkout.checkoutId }, {}, script.ctx);
    expect(paid).toMatchObject({ state: 'PAID', card: { lastFourDigits: '1111' } });
    expect(JSON.parse(script.stdout.text())).toMatchObject({ kind: 'checkout', state: 'PAID' });
    expect(script.stderr.text()).toBe('');
  });

  it('plays the customer for the fixtures through playCustomer, choosing an offered card for the outcome', async () => {
    const client = new ApiClient({ baseUrl: sb.url, businessId: 'fn-biz' });
    const link = await linkCreate(
      {},
      { amount: '3', currency: 'EUR', returnUrl: 'http://127.0.0.1:9/closed', brand: ['mastercard'] },
      setup({ json: true }).ctx,
    );
    const steps: string[] = [];
    const result = await playCustomer(client, link.body.link.linkId, { follow: false, onStep: (s) => steps.push(s) });
    expect(result).toMatchObject({ kind: 'link', state: 'PAID', asExpected: true, card: { brandId: 1020 } });
    expect(result.merchant).toBeUndefined();
    expect(steps).toContain('Submitting the card');
  });

  it('prints colour only to a terminal without NO_COLOR or --no-color, and only JSON on stdout with --json', async () => {
    const link = await linkCreate({}, { amount: '3', currency: 'EUR', returnUrl: 'https://shop.example/r' }, setup({ json: true }).ctx);
    const id = link.body.link.linkId;
    const colour = setup({ tty: true });
    await status({ id }, {}, colour.ctx);
    expect(colour.stdout.text()).toContain('\u001b[');
    const noColor = setup({ tty: true, env: { NO_COLOR: '1' } });
    await status({ id }, {}, noColor.ctx);
    expect(noColor.stdout.text()).not.toContain('\u001b[');
    const flag = new Ui({ stdout: sink(true), stderr: sink(true) }, { color: false, env: {} });
    expect(flag.color.red('x')).toBe('x');
    const piped = setup({ tty: false });
    await status({ id }, {}, piped.ctx);
    expect(piped.stdout.text()).not.toContain('\u001b[');
    expect(piped.stdout.text()).toContain('READY');
    const json = setup({ json: true, tty: true });
    await status({ id }, {}, json.ctx);
    expect(JSON.parse(json.stdout.text())).toMatchObject({ kind: 'link', state: 'READY' });
    expect(json.stderr.text()).toBe('');
  });

  it('resolves flags over environment over paylink.config.json (or package.json "paylink") over defaults, and rejects a bad config', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-cfg-'));
    try {
      expect(resolveConnection({}, {}, dir)).toMatchObject({
        baseUrl: 'http://127.0.0.1:8417',
        businessId: 'sandbox-business',
        username: undefined,
        password: undefined,
        timeoutMs: 10_000,
      });
      writeFileSync(join(dir, 'paylink.config.json'), JSON.stringify({ baseUrl: 'http://config.example:1/', businessId: 'cfg', username: 'u', password: 'p' }));
      expect(resolveConnection({}, {}, dir)).toMatchObject({
        baseUrl: 'http://config.example:1',
        businessId: 'cfg',
        username: 'u',
        password: 'p',
        timeoutMs: 30_000,
        sources: { baseUrl: 'paylink.config.json', businessId: 'paylink.config.json' },
      });
      expect(resolveConnection({}, { PAYLINK_BASE_URL: 'http://env.example', PAYLINK_BUSINESS_ID: 'env' }, dir)).toMatchObject({
        baseUrl: 'http://env.example',
        businessId: 'env',
      });
      expect(resolveConnection({ baseUrl: 'https://flag.example', businessId: 'flag' }, { PAYLINK_BUSINESS_ID: 'env' }, dir)).toMatchObject({
        baseUrl: 'https://flag.example',
        businessId: 'flag',
      });
      expect(() => resolveConnection({ baseUrl: 'ftp://x' }, {}, dir)).toThrow(/--base-url: expected an http\(s\) URL/);
      writeFileSync(join(dir, 'paylink.config.json'), '{ nope');
      expect(() => resolveConnection({}, {}, dir)).toThrow(/paylink.config.json: not valid JSON/);
      rmSync(join(dir, 'paylink.config.json'));
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', paylink: { businessId: 'from-package' } }));
      expect(resolveConnection({}, {}, dir)).toMatchObject({ baseUrl: 'http://127.0.0.1:8417', businessId: 'from-package' });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', paylink: { businessId: 42 } }));
      expect(() => resolveConnection({}, {}, dir)).toThrow('package.json "paylink": "businessId" must be a string.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads brands by id or name, repeated or comma-separated, and refuses unknown ones', () => {
    expect(parseBrands(['visa,MasterCard', 'amex', '1010', 'american-express'])).toEqual([1010, 1020, 1030]);
    expect(parseBrands(undefined)).toBeUndefined();
    expect(() => parseBrands(['bitcoin'])).toThrow(/--brand: unknown brand "bitcoin"/);
    expect(() => parseBrands(['9999'])).toThrow(/unknown brand id 9999/);
  });

  it('reads the form token, page state and alert from hosted-page HTML whatever the attribute order', () => {
    const page = `<body class="x" data-paylink-state='form'><div role="alert" aria-live="assertive">Declined &amp; <b>retry</b></div>
      <input value="a&quot;b" type="hidden" name="formToken"><input name="other" value="z"></body>`;
    expect(hiddenInput(page, 'formToken')).toBe('a"b');
    expect(pageState(page)).toBe('form');
    expect(alertText(page)).toBe('Declined & retry');
    expect(hiddenInput('<p>no form</p>', 'formToken')).toBeUndefined();
  });

  it('reports a refused connection as unreachable with how to start the sandbox', async () => {
    const client = new ApiClient({ baseUrl: 'http://127.0.0.1:1', businessId: 'x' });
    const error = await client.get('/gateway/v3/paymentlinks/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as Error).message).toMatch(/Cannot reach http:\/\/127\.0\.0\.1:1 .*Start it with `paylink sandbox`/);
  });

  it('builds completion scripts that bash accepts, and refuses other shells', () => {
    const program = buildProgram(() => new Ui({ stdout: sink(false), stderr: sink(false) }));
    const script = completionScript(program, 'bash');
    expect(() => execFileSync('bash', ['-n'], { input: script })).not.toThrow();
    const words = execFileSync('bash', ['-c', `${script}\nCOMP_WORDS=(paylink link cr); COMP_CWORD=2; _paylink; echo "\${COMPREPLY[@]}"`])
      .toString()
      .trim();
    expect(words).toBe('create');
    const outcomes = execFileSync('bash', ['-c', `${script}\nCOMP_WORDS=(paylink pay abc --outcome 3); COMP_CWORD=4; _paylink; echo "\${COMPREPLY[@]}"`])
      .toString()
      .trim();
    expect(outcomes).toBe('3ds');
    const payFlags = execFileSync('bash', [
      '-c',
      `${script}\nCOMP_WORDS=(paylink pay abc --outcome declined --save-); COMP_CWORD=5; _paylink; echo "\${COMPREPLY[@]}"`,
    ])
      .toString()
      .trim();
    expect(payFlags).toBe('--save-card');
    // Every brand offered is one --brand takes (the list once drifted from the parser's names).
    const brands = execFileSync('bash', ['-c', `${script}\nCOMP_WORDS=(paylink payment create --brand ''); COMP_CWORD=4; _paylink; echo "\${COMPREPLY[@]}"`])
      .toString()
      .trim()
      .split(' ');
    expect(brands).toEqual(expect.arrayContaining(['visa', 'amex', 'ideal', 'paypal']));
    for (const brand of brands) expect(() => parseBrand(brand), brand).not.toThrow();
    expect(new Set(brands).size, 'each brand offered once').toBe(brands.length);
    expect(() => completionScript(new Command(), 'powershell')).toThrow(UsageError);
  });

  it('follows a link created elsewhere with the returnUrl the sandbox stored, or --return-url, rebuilding the query the hosted page uses', async () => {
    const created = await sb.post(
      '/gateway/v3/paymentlinks',
      linkRequest({ businessId: 'fn-biz', link: { returnUrl: 'http://127.0.0.1:9/stored?from=mail' } }),
    );
    const id = created.body.body.link.linkId as string;
    const { ctx } = setup({ json: true });
    await expect(follow({ id }, {}, ctx)).rejects.toThrow(/has not finished/);
    const paid = await playCustomer(ctx.client, id, { follow: false });
    // Not in this folder's journal: the sandbox's admin API says the returnUrl it stored.
    const stored = await follow({ id }, {}, setup({ json: true }).ctx);
    expect(stored).toMatchObject({ state: 'PAID', url: `http://127.0.0.1:9/stored?from=mail&linkId=${id}&id=${paid.payment!.id}` });
    const merchantless = setup({ json: true });
    const result = await follow({ id }, { returnUrl: 'http://127.0.0.1:9/back?from=mail' }, merchantless.ctx);
    expect(result).toMatchObject({
      state: 'PAID',
      source: 'return-url',
      url: `http://127.0.0.1:9/back?from=mail&linkId=${id}&id=${paid.payment!.id}`,
      merchant: { error: expect.any(String) },
    });
    expect(JSON.parse(merchantless.stdout.text())).toEqual(result);
  });

  it('opens the hosted page with the browser opener, or prints the URL with --print', async () => {
    const link = await linkCreate({}, { amount: '3', currency: 'EUR', returnUrl: 'https://shop.example/r' }, setup({ json: true }).ctx);
    const id = link.body.link.linkId as string;
    const opened: string[] = [];
    const person = setup();
    const result = await openPage({ id }, {}, person.ctx, async (url) => void opened.push(url));
    expect(result).toEqual({ kind: 'link', id, page: 'hosted', url: `${sb.url}/gateway/v3/web/paymentlinks/${id}`, opened: true });
    expect(opened).toEqual([result.url]);
    const printer = setup();
    const printed = await openPage({ id }, { print: true }, printer.ctx, async () => {
      throw new Error('must not open with --print');
    });
    expect(printed.opened).toBe(false);
    expect(printer.stdout.text()).toBe(`${result.url}\n`);
    await expect(openPage({ id: '00000000-0000-4000-8000-000000000000' }, {}, printer.ctx)).rejects.toBeInstanceOf(ApiResponseError);
  });

  it('counts a retry card as asked both when it fails its first attempt and when the next attempt is approved', async () => {
    const link = await linkCreate({}, { amount: '3', currency: 'EUR', returnUrl: 'http://127.0.0.1:9/closed' }, setup({ json: true }).ctx);
    const id = link.body.link.linkId as string;
    const first = await pay({ id }, { outcome: 'failed-retry', follow: false }, setup({ json: true }).ctx);
    expect(first).toMatchObject({ asExpected: true, state: 'READY', payment: { result: -3 } });
    const second = await pay({ id }, { outcome: 'failed-retry', follow: false }, setup({ json: true }).ctx);
    expect(second).toMatchObject({ asExpected: true, state: 'PAID', payment: { result: 0 } });
    expect(second.merchant).toBeUndefined();
  });
});
