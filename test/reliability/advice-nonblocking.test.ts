/**
 * Advice does not hold up the API (issue 22.8, docs/reliability.md): over a request log of 10,000 payments,
 * `GET /__sandbox/advice` works in slices, so other requests are answered while it runs (it blocked every
 * request for 1.3-2.1 s before). A real sandbox process; the log is seeded through the request log's own
 * observer with rows as a real payment leaves them. Asserted: a health check sent after the advice comes back
 * before it (order, not time; the figures are printed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { ObservedRequest } from '../../src/sandbox/http/observe.js';
import { card } from '../conformance/client.js';
import { startProcess, type SandboxProcess } from './process.js';

const ROWS = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'paylink-advice-'));
const db = join(dir, 'sandbox.db');
let proc: SandboxProcess | undefined;
afterAll(async () => {
  await proc?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A database whose request log holds ROWS card payments, as the observer saw a real one. */
async function seed(): Promise<void> {
  const seen: ObservedRequest[] = [];
  const running = await startSandbox({ port: 0, db, observers: [(entry) => seen.push(entry)] });
  try {
    const answer = await fetch(`${running.url}/gateway/v3/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        action: 'payment',
        header: { businessId: 'advice-load' },
        body: { transaction: { amount: 10, currencyCode: 'EUR', trackingCode: 'load-0000' }, card: card('4111111111111111') },
      }),
    });
    expect(answer.status).toBe(200);
    const payment = seen.find((e) => e.method === 'POST')!;
    const log = running.sandbox.log;
    for (let i = 1; i <= ROWS; i++) {
      log.observer({ ...payment, startedAt: payment.startedAt + i, requestJson: payment.requestJson?.replace('load-0', `load-${i}`) });
      // The window keeps about a hundred rows unwritten; written as it fills, none is dropped.
      if (i % 50 === 0) log.flush();
    }
    log.flush();
  } finally {
    await running.close();
  }
}

test('answers other requests while advice over 10,000 logged payments runs', async () => {
  await seed();
  proc = await startProcess(db);
  const url = proc.url;
  const logged = (await (await fetch(`${url}/__sandbox/requests?limit=1`)).json()) as { body: { lastSeq: number } };
  expect(logged.body.lastSeq).toBeGreaterThanOrEqual(ROWS);

  const started = performance.now();
  let adviceDone: number | undefined;
  const advice = fetch(`${url}/__sandbox/advice`).then(async (r) => {
    const body = (await r.json()) as { result: number };
    adviceDone = performance.now();
    return { status: r.status, body };
  });
  // One health check after another while the advice is computed: each one's time, and whether it came back
  // before the advice did.
  const during: number[] = [];
  while (adviceDone === undefined && performance.now() - started < 60_000) {
    const sent = performance.now();
    const health = await fetch(`${url}/__sandbox/health`);
    await health.arrayBuffer();
    if (adviceDone === undefined) during.push(performance.now() - sent);
  }
  const result = await advice;
  expect(result.status).toBe(200);
  expect(result.body.result).toBe(0);
  const adviceMs = adviceDone! - started;
  // Before: the first health check, sent after the advice, waited for the whole advice; now it comes back first.
  expect(during.length, `advice took ${adviceMs.toFixed(0)} ms; no health check came back before it`).toBeGreaterThanOrEqual(1);
  console.log(
    `advice over ${ROWS} logged payments: ${adviceMs.toFixed(0)} ms; ${during.length} health checks meanwhile, slowest ${Math.max(...during).toFixed(0)} ms`,
  );
}, 120_000);

test('keeps its copy of the log true across new requests and resets', async () => {
  const url = proc!.url;
  const findings = async () =>
    ((await (await fetch(`${url}/__sandbox/advice`)).json()) as { body: { findings: Array<{ check: string }> } }).body.findings.map((f) => f.check);
  const link = () =>
    fetch(`${url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      // With credentials, as the provider required: only the reused tracking code is this test's finding.
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('shop:secret').toString('base64')}` },
      body: JSON.stringify({
        header: { businessId: 'advice-kept' },
        body: {
          transaction: { amount: 5, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: 'kept-1' },
          link: { brandIds: [1010], returnUrl: 'https://shop.example/r' },
        },
      }),
    });
  expect((await fetch(`${url}/__sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  expect(await findings()).toEqual([]);
  expect((await link()).status).toBe(200);
  expect((await link()).status).toBe(400);
  expect(await findings()).toEqual(['reuses-tracking-code']);
  expect((await fetch(`${url}/__sandbox/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(200);
  expect(await findings()).toEqual([]);
}, 60_000);
