/**
 * Interactive prompts on a real pseudo-terminal (issue 31, items 7 and 17): which questions `link create`,
 * `payment create` and `pay` ask, that a checklist answer never loses the answers before it, and that
 * `--no-color` and NO_COLOR reach the prompts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_BRAND_IDS } from '../../src/sandbox/domain/brands.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { CTRL_C, ENTER, hasScript, runInTty } from '../helpers/tty.js';

const sb = useSandbox();
let cwd: string;

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'paylink-prompts-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

// A colour sequence (SGR: ESC [ ... m); cursor moves and line clears are not colour.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the terminal's colour sequences is the point
const COLOUR = /\u001b\[[0-9;]*m/;

describe.runIf(hasScript)('colour at prompts (31.17)', () => {
  it('shows colour at a prompt by default, and none with --no-color or NO_COLOR', async () => {
    const ask = (args: string[], env: Record<string, string> = {}) =>
      runInTty(['link', 'create', '--base-url', sb.url, ...args], [{ when: /Amount \(EUR\)/, send: CTRL_C }], { cwd, env });
    const coloured = await ask(['--currency', 'EUR']);
    expect(coloured.screen).toContain('Amount (EUR)');
    expect(coloured.raw).toMatch(COLOUR);
    const flag = await ask(['--currency', 'EUR', '--no-color']);
    expect(flag.screen).toContain('Amount (EUR)');
    expect(flag.code).toBe(130);
    expect(flag.raw).not.toMatch(COLOUR);
    const env = await ask(['--currency', 'EUR'], { NO_COLOR: '1' });
    expect(env.screen).toContain('Amount (EUR)');
    expect(env.raw).not.toMatch(COLOUR);
  });

  it('shows no colour in a checklist or a list with --no-color', async () => {
    const checklist = await runInTty(
      ['link', 'create', '--base-url', sb.url, '--no-color', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r'],
      [
        { when: /Amount \(EUR\)/, send: `5${ENTER}` },
        { when: /Card brands offered/, send: CTRL_C },
      ],
      { cwd },
    );
    expect(checklist.screen).toContain('VISA');
    expect(checklist.raw).not.toMatch(COLOUR);
    const created = await sb.post(
      '/gateway/v3/paymentlinks',
      linkRequest({ businessId: 'sandbox-business', link: { returnUrl: 'http://127.0.0.1:9/return' } }),
    );
    const list = await runInTty(
      ['pay', created.body.body.link.linkId, '--base-url', sb.url, '--no-color'],
      [{ when: /What should the customer do/, send: CTRL_C }],
      {
        cwd,
      },
    );
    expect(list.screen).toContain('approved');
    expect(list.raw).not.toMatch(COLOUR);
  });
});

describe.runIf(hasScript)('which questions are asked (31.7)', () => {
  it('`link create --amount --currency --return-url` asks nothing and offers every card brand', async () => {
    const run = await runInTty(
      ['link', 'create', '--base-url', sb.url, '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r'],
      [{ when: /Card brands offered/, send: CTRL_C }],
      { cwd },
    );
    expect(run.screen).not.toContain('Card brands offered');
    expect(run.code, run.screen).toBe(0);
    const id = /Link id:\s+(\S+)/.exec(run.screen)?.[1];
    const link = await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=sandbox-business`);
    expect(link.body.body.link.brandIds).toEqual(CARD_BRAND_IDS);
  });

  it('`payment create --amount --currency` asks for no card and pays with the approve card', async () => {
    const run = await runInTty(['payment', 'create', '--base-url', sb.url, '--amount', '5', '--currency', 'EUR'], [{ when: /Which test card/, send: CTRL_C }], {
      cwd,
    });
    expect(run.screen).not.toContain('Which test card?');
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toMatch(/Result:\s+\S+ \(0\)/);
  });

  it('ticks every brand a test card can pay (VPay too), and a brand chosen keeps every answer before it', async () => {
    const vpay = CARD_BRAND_IDS.indexOf(1015);
    const run = await runInTty(
      ['link', 'create', '--base-url', sb.url, '--no-color'],
      [
        { when: /Currency/, send: ENTER },
        { when: /Amount \(EUR\)/, send: `12.34${ENTER}` },
        { when: /Return URL/, send: ENTER },
        { when: /Card brands offered[\s\S]*VPay \(1015\)/, send: `a${'\u001b[B'.repeat(vpay)} ${ENTER}` },
      ],
      { cwd },
    );
    expect(run.screen).toMatch(/\u25c9 VPay \(1015\)/);
    expect(run.code, run.screen).toBe(0);
    const id = /Link id:\s+(\S+)/.exec(run.screen)?.[1];
    const body = (await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=sandbox-business`)).body.body;
    expect(body.link.brandIds).toEqual([1015]);
    expect(body.transaction).toMatchObject({ amount: 12.34, currencyCode: 'EUR' });
  });

  it('`pay` on a paid link says it cannot be paid before asking what the customer should do', async () => {
    const created = await sb.post(
      '/gateway/v3/paymentlinks',
      linkRequest({ businessId: 'sandbox-business', link: { returnUrl: 'http://127.0.0.1:9/return' } }),
    );
    const id = created.body.body.link.linkId as string;
    const paid = await runInTty(['pay', id, '--base-url', sb.url, '--outcome', 'approved', '--no-follow'], [], { cwd });
    expect(paid.code, paid.screen).toBe(0);
    const run = await runInTty(['pay', id, '--base-url', sb.url], [{ when: /What should the customer do/, send: CTRL_C }], { cwd });
    expect(run.screen).not.toContain('What should the customer do');
    expect(run.screen).toContain(`The link ${id} cannot be paid: it is PAID`);
    expect(run.code).toBe(3);
  });
});
