/**
 * At least once across a crash: a sandbox killed with `kill -9` while a delivery is in flight and another
 * is waiting delivers both after it is started again on the same database.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { eventually, uniqueCode } from '../helpers/sandbox.js';
import { until } from '../helpers/cli.js';
import { startReceiver, verifyDelivery } from '../helpers/webhook-receiver.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;
const SECRET = 'restart-webhook-secret';
const dir = mkdtempSync(join(tmpdir(), 'paylink-wh-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function post(url: string, body: unknown) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return res.json() as Promise<any>;
}

function payment(base: string, businessId: string) {
  return post(`${base}/gateway/v3/payments`, {
    action: 'payment',
    header: { businessId },
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode: uniqueCode('restart') },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2033', holderName: 'Ada' },
    },
  });
}

it('delivers pending events after the sandbox was killed with kill -9 and started again', async () => {
  const db = join(dir, 'sandbox.db');
  const receiver = await startReceiver();
  // The first delivery hangs until the sandbox is gone: it is in flight when the process dies.
  let release!: () => void;
  const hung = new Promise<void>((r) => (release = r));
  receiver.answer(async (_d, i) => {
    if (i === 0) await hung;
    return 200;
  });
  // Started in its own folder: a sandbox killed with SIGKILL leaves its discovery entry where it started.
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--db', db, '--webhook-secret', SECRET, '--webhook-retry', 'fast', '--json'], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  try {
    await until(() => /"url":\s*"(http:\/\/[^"]+)"/.test(out) || child.exitCode !== null, 15_000);
    const url = /"url":\s*"(http:\/\/[^"]+)"/.exec(out)?.[1];
    if (url === undefined) throw new Error(`the sandbox did not start: ${err}`);
    const added = await post(`${url}/__sandbox/webhooks`, { businessId: 'restart', url: receiver.url });
    expect(added.result).toBe(0);
    const first = await payment(url, 'restart');
    await receiver.waitFor(1);
    const second = await payment(url, 'restart');
    expect([first.result, second.result]).toEqual([0, 0]);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    release();
  }

  const restarted = await startSandbox({ port: 0, db, webhookSecret: SECRET, webhookRetry: 'fast' });
  try {
    // The in-flight one again (same Id), and every other event of the two payments.
    const got = await receiver.waitFor(3);
    const byId = new Map<string, number>();
    for (const d of got) {
      await verifyDelivery(d, SECRET);
      byId.set(d.body.Id, (byId.get(d.body.Id) ?? 0) + 1);
    }
    expect(byId.get(receiver.deliveries[0]!.body.Id)).toBeGreaterThanOrEqual(2);
    expect(byId.size).toBe(2);
    const events = (await (await fetch(`${restarted.url}/__sandbox/events?businessId=restart`)).json()) as any;
    const statuses = await eventually(
      async () => {
        const now = (await (await fetch(`${restarted.url}/__sandbox/events?businessId=restart`)).json()) as any;
        return now.body.events.flatMap((e: any) => e.deliveries.map((d: any) => d.status)) as string[];
      },
      (got) => got.every((s) => s === 'delivered'),
    );
    expect(events.body.events).toHaveLength(2);
    expect(statuses).toEqual(['delivered', 'delivered']);
  } finally {
    await restarted.close();
    await receiver.close();
  }
});
