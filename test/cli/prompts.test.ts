/**
 * Interactive prompts on a real pseudo-terminal (issue 31, items 7 and 17): which questions `link create`,
 * `payment create` and `pay` ask, that a checklist answer never loses the answers before it, and that
 * `--no-color` and NO_COLOR reach the prompts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { returnUrl: 'http://127.0.0.1:9/return' } }));
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
