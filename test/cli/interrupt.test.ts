/**
 * Ctrl-C stops any command at once (issue 23, item 1), on a real terminal (util-linux `script`, sized so
 * that the spinner runs): a request that never gets an answer, and `pay` waiting on a returnUrl that
 * answers late.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { CTRL_C, hasScript, runInTty } from '../helpers/tty.js';

const sb = useSandbox();
let silent: Server;
let silentUrl: string;

beforeAll(async () => {
  // Accepts connections and never answers.
  silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
});
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise((resolve) => silent.close(resolve));
});

describe.runIf(hasScript)('Ctrl-C under a spinner', () => {
  it('ends `link get` against a server that never answers with exit 130 at once, not at the 10 s timeout', async () => {
    const run = await runInTty(['--base-url', silentUrl, 'link', 'get', 'abc'], [{ when: /Reading the payment link/, send: CTRL_C }], {
      columns: 120,
      timeoutMs: 30_000,
    });
    // Ctrl-C ended it, not the 10 s timeout: exit 130 and "Interrupted.", never the timeout's message.
    expect(run.code, run.screen).toBe(130);
    expect(run.screen).toContain('Interrupted.');
    expect(run.screen).not.toContain('did not answer');
  });

  it('ends `pay` waiting on a returnUrl that answers late with exit 130 at once', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'sandbox-business', link: { returnUrl: `${silentUrl}/return` } }));
    const id = created.body.body.link.linkId as string;
    const run = await runInTty(['--base-url', sb.url, 'pay', id, '--outcome', 'approved'], [{ when: /Following the redirect to returnUrl/, send: CTRL_C }], {
      columns: 120,
      timeoutMs: 30_000,
    });
    // Ctrl-C ended it (exit 130), not the returnUrl's late answer or a timeout.
    expect(run.code, run.screen).toBe(130);
    expect(run.screen).toContain('Interrupted.');
  });
});
