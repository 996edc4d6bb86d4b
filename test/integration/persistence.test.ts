import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { checkoutRequest, linkRequest, requestJson, useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const root = new URL('../..', import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'paylink-persist-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('data survives a restart', () => {
  it('keeps links, checkouts, a cancellation and the tracking-code index across a restart', async () => {
    const link = await sb.post('/gateway/v3/paymentlinks', linkRequest({ link: { duration: 'PT3H', threeDSecure: true } }));
    const cancelled = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const checkout = await sb.post('/gateway/v3/checkouts', checkoutRequest({ checkout: { tokenize: 'true' } }));
    const cancelledId = cancelled.body.body.link.linkId;
    await sb.post(`/gateway/v3/paymentlinks/${cancelledId}/cancel`, { header: { businessId: 'biz-1' } });
    const linkBefore = await sb.get(`/gateway/v3/paymentlinks/${link.body.body.link.linkId}?businessId=biz-1`);
    const checkoutBefore = await sb.get(`/gateway/v3/checkouts/${checkout.body.body.checkout.checkoutId}?businessId=biz-1`);
    const oldUrl = sb.url;

    await sb.restart();
    expect(sb.url).not.toBe(oldUrl);

    const linkAfter = await sb.get(`/gateway/v3/paymentlinks/${link.body.body.link.linkId}?businessId=biz-1`);
    expect(linkAfter.body.body.transaction).toEqual(linkBefore.body.body.transaction);
    // Everything but the base URL of the hosted page is unchanged.
    expect({ ...linkAfter.body.body.link, redirect: undefined }).toEqual({ ...linkBefore.body.body.link, redirect: undefined });
    expect(linkAfter.body.body.link.redirect.url).toBe(`${sb.url}/gateway/v3/web/paymentlinks/${link.body.body.link.linkId}`);
    expect((await sb.get(`/gateway/v3/paymentlinks/${cancelledId}?businessId=biz-1`)).body.body.link.status).toBe('CANCELLED');
    const checkoutAfter = await sb.get(`/gateway/v3/checkouts/${checkout.body.body.checkout.checkoutId}?businessId=biz-1`);
    expect(checkoutAfter.body.result).toBe(2);
    expect({ ...checkoutAfter.body.body.checkout, redirect: undefined }).toEqual({ ...checkoutBefore.body.body.checkout, redirect: undefined });
    const code = link.body.body.transaction.trackingCode;
    const byCode = await sb.get(`/gateway/v3/paymentlinks?businessId=biz-1&trackingCode=${encodeURIComponent(code)}`);
    expect(byCode.body.body.link.linkId).toBe(link.body.body.link.linkId);
    const duplicate = await sb.post('/gateway/v3/paymentlinks', linkRequest({ transaction: { trackingCode: code } }));
    expect(duplicate.body.result).toBe(-8);
  });

  it('commits every answered write before answering: another connection sees it at once', async () => {
    const created = await sb.post('/gateway/v3/paymentlinks', linkRequest());
    const reader = new Database(sb.dbPath, { readonly: true, fileMustExist: true });
    try {
      const row = reader.prepare('SELECT business_id FROM links WHERE id = ?').get(created.body.body.link.linkId) as { business_id: string } | undefined;
      expect(row?.business_id).toBe('biz-1');
    } finally {
      reader.close();
    }
  });

  it('keeps every concurrently created link when many requests share commits', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => sb.post('/gateway/v3/paymentlinks', linkRequest())));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    await sb.restart();
    for (const a of answers) {
      const read = await sb.get(`/gateway/v3/paymentlinks/${a.body.body.link.linkId}?businessId=biz-1`);
      expect(read.status).toBe(200);
    }
  });

  it('serves from an in-memory database with --db :memory:', async () => {
    const running = await startSandbox({ port: 0, db: ':memory:' });
    try {
      const created = await requestJson(`${running.url}/gateway/v3/paymentlinks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(linkRequest()),
      });
      expect(created.status).toBe(200);
      const read = await requestJson(`${running.url}/gateway/v3/paymentlinks/${created.body.body.link.linkId}?businessId=biz-1`);
      expect(read.body.body.link.status).toBe('READY');
    } finally {
      await running.close();
    }
  });

  it('refuses a database written by a newer paylink with a clear message', async () => {
    const path = join(scratch, 'newer.db');
    const db = new Database(path);
    db.pragma('user_version = 999');
    db.close();
    await expect(startSandbox({ port: 0, db: path })).rejects.toThrow(/newer than this paylink.*--db/);
  });

  it('starts on the wall clock when the saved clock state cannot be a time', async () => {
    const path = join(scratch, 'broken-clock.db');
    const first = await startSandbox({ port: 0, db: path });
    await first.close();
    const db = new Database(path);
    db.prepare("INSERT INTO meta (key, value) VALUES ('clock', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value").run(
      JSON.stringify({ offsetMs: 1e308 }),
    );
    db.close();
    const again = await startSandbox({ port: 0, db: path });
    try {
      expect(Math.abs(again.sandbox.clock.now() - Date.now())).toBeLessThan(5_000);
      const created = await requestJson(`${again.url}/gateway/v3/paymentlinks`, { method: 'POST', body: JSON.stringify(linkRequest()) });
      expect(created.status).toBe(200);
    } finally {
      await again.close();
    }
  });
});

/** Spawns `node bin/paylink.js sandbox --port 0 --db <path>` and resolves with its URL once it answers. */
async function spawnSandbox(dbPath: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['bin/paylink.js', 'sandbox', '--port', '0', '--db', dbPath], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed within 15 s:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /https?:\/\/127\.0\.0\.1:\d+/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}:\n${output}`));
    });
  });
  return { child, url };
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

describe('kill -9', () => {
  it('loses no answered request: N links created, SIGKILL, restart, all N are there', async () => {
    const dbPath = join(scratch, 'killed.db');
    const first = await spawnSandbox(dbPath);
    const N = 40;
    let ids: string[];
    try {
      const answers = await Promise.all(
        Array.from({ length: N }, () =>
          requestJson(`${first.url}/gateway/v3/paymentlinks`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(linkRequest({ businessId: 'biz-kill' })),
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(N).fill(200));
      ids = answers.map((a) => a.body.body.link.linkId as string);
    } finally {
      first.child.kill('SIGKILL');
      await exited(first.child);
    }
    expect(first.child.signalCode).toBe('SIGKILL');

    const second = await spawnSandbox(dbPath);
    try {
      for (const id of ids) {
        const read = await requestJson(`${second.url}/gateway/v3/paymentlinks/${id}?businessId=biz-kill`);
        expect(read.status, id).toBe(200);
        expect(read.body.body.link.status).toBe('READY');
      }
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  });
});
