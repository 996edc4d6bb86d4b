/**
 * Two customers on one link (issue 31, item 6): the `pay` whose form reaches the page after the other
 * paid must say the link was paid by another payment (exit 3), not report the winner's payment as its own.
 * Deterministic: the loser's requests go through a loopback relay (the sandbox's public URL) that holds
 * its form post until the winner, a second real `pay`, has finished.
 */
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.js';
import { runCli } from '../helpers/cli.js';
import { linkRequest } from '../helpers/sandbox.js';

let sandbox: RunningSandbox;
let relay: Server;
let relayUrl: string;
/** Runs when the first form post to a link's page arrives, before it is passed on. */
let onFirstFormPost: (() => Promise<void>) | undefined;

beforeAll(async () => {
  relay = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'POST' && /\/web\/paymentlinks\//.test(req.url ?? '') && onFirstFormPost) {
        const hold = onFirstFormPost;
        onFirstFormPost = undefined;
        await hold();
      }
      const target = new URL(sandbox.url);
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.on('error', () => res.destroy());
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
  sandbox = await startSandbox({ port: 0, db: ':memory:', publicUrl: relayUrl });
});
afterAll(async () => {
  await sandbox.close();
  relay.closeAllConnections();
  await new Promise((resolve) => relay.close(resolve));
});

describe('two `pay` on one link', () => {
  it('the one whose card arrives second says the link was paid by another payment (exit 3)', async () => {
    const created = await fetch(`${sandbox.url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(linkRequest({ businessId: 'race-shop' })),
    });
    const linkId = ((await created.json()) as { body: { link: { linkId: string } } }).body.link.linkId;
    const args = ['pay', linkId, '--link', '--no-follow', '--json', '--business-id', 'race-shop'];
    let winner: Awaited<ReturnType<typeof runCli>> | undefined;
    // The loser has opened the page and posts its card; before it arrives, the winner pays.
    onFirstFormPost = async () => {
      winner = await runCli([...args, '--base-url', sandbox.url]);
    };
    const loser = await runCli([...args, '--base-url', relayUrl]);
    expect(winner?.code, `${winner?.stderr} / loser: ${loser.code} ${loser.stderr} ${loser.stdout}`).toBe(0);
    const paidBy = winner!.json.payment.id as string;
    expect(loser.code, loser.stderr + loser.stdout).toBe(3);
    expect(loser.stderr).toContain(`the link was paid by another payment (${paidBy}) while this customer was on its page: this play made no payment.`);
    expect(loser.json).toMatchObject({ paidByAnother: paidBy, asExpected: false });
    expect(loser.json.payment).toBeUndefined();
  });
});
