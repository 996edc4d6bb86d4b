// Backlogs (issue 32.1 and 32.6), part of `npm run bench`, or alone: `node scripts/bench-backlogs.mjs` after
// `npm run build`. A sandbox of its own (the built dist/, in this process, a temporary database):
//
// - webhooks: BENCH_BACKLOG deliveries (default 20,000) due to a receiver that never answers, written in one
//   write through the event service; then another business's card payment: the time from its answer to its
//   event's arrival at a healthy receiver, beside the same with no backlog.
// - fault rules: a GET of a payment, the mean of BENCH_FAULT_READS sequential reads (default 2,000), with no
//   rule and with 1,000 rules that do not match it (other paths, other businesses); and the time 1,000 rules
//   take to add over the admin API, 50 at a time.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BACKLOG = Number(process.env.BENCH_BACKLOG ?? 20_000);
const FAULT_READS = Number(process.env.BENCH_FAULT_READS ?? 2_000);
const CARD = { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' };

function listen(handler) {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function close(server) {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function post(url, body) {
  const answer = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return answer.json();
}

function pay(base, businessId, notifyUrl) {
  const transaction = { amount: 10, currencyCode: 'EUR', trackingCode: `bench-${Math.random().toString(36).slice(2)}`, ...(notifyUrl ? { notifyUrl } : {}) };
  return post(`${base}/gateway/v3/payments`, { action: 'payment', header: { businessId }, body: { transaction, card: CARD } });
}

/** Milliseconds from a healthy business's payment answer to its event's arrival. */
async function healthyDelay(base) {
  let arrived;
  const got = new Promise((resolve) => (arrived = resolve));
  const healthy = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      arrived(performance.now());
      res.end('ok');
    });
  });
  try {
    const paid = await pay(base, 'bench-healthy', `http://127.0.0.1:${healthy.address().port}/hooks`);
    const answered = performance.now();
    if (paid.result !== 0) throw new Error(`backlog bench: payment answered ${JSON.stringify(paid)}`);
    const at = await Promise.race([got, new Promise((resolve) => setTimeout(() => resolve(undefined), 120_000))]);
    return at === undefined ? Infinity : at - answered;
  } finally {
    await close(healthy);
  }
}

export async function measureBacklogs() {
  const { startSandbox } = await import(pathToFileURL(join(root, 'dist/sandbox/index.js')).href);
  const dir = mkdtempSync(join(tmpdir(), 'paylink-bench-backlogs-'));
  const running = await startSandbox({ port: 0, db: join(dir, 'backlogs.db') });
  const hanging = await listen(() => undefined);
  try {
    const base = running.url;
    const quiet = await healthyDelay(base);
    const sandbox = running.sandbox;
    const hangingUrl = `http://127.0.0.1:${hanging.address().port}/hooks`;
    await sandbox.store.write(() => {
      for (let i = 0; i < BACKLOG; i++)
        sandbox.events.custom({ type: 'Transaction.Update', payload: { result: 0 }, businessId: 'bench-hanging', url: `${hangingUrl}?order=${i}` });
    });
    const backlogged = await healthyDelay(base);

    const paid = await pay(base, 'bench-faults');
    const path = `${base}/gateway/v3/payments/${paid.body.id}?businessId=bench-faults`;
    const reads = async () => {
      const started = performance.now();
      for (let i = 0; i < FAULT_READS; i++) await (await fetch(path)).arrayBuffer();
      return (performance.now() - started) / FAULT_READS;
    };
    await reads();
    const noRules = await reads();
    const rules = Array.from({ length: 1000 }, (_, i) =>
      i % 2
        ? { kind: 'status', status: 500, method: 'GET', path: 'payments/*', businessId: `other-${i}` }
        : { kind: 'status', status: 500, path: `paymentlinks/other-${i}` },
    );
    const adding = performance.now();
    for (let i = 0; i < rules.length; i += 50) await Promise.all(rules.slice(i, i + 50).map((rule) => post(`${base}/__sandbox/faults`, rule)));
    const addMs = performance.now() - adding;
    const withRules = await reads();
    return { backlog: BACKLOG, quiet, backlogged, noRules, withRules, addMs };
  } finally {
    await close(hanging);
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function printBacklogs(b) {
  const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(0).padStart(6)} ms` : 'not within 120 s');
  console.log(`
backlogs
webhook to a healthy receiver       ${ms(b.quiet)} with no backlog, ${ms(b.backlogged)} with ${b.backlog} deliveries due to a hanging one
GET with fault rules                ${b.noRules.toFixed(2).padStart(6)} ms with none, ${b.withRules.toFixed(2).padStart(6)} ms with 1,000 that do not match (mean of ${FAULT_READS} sequential reads)
adding 1,000 fault rules            ${b.addMs.toFixed(0).padStart(6)} ms (admin API, 50 at a time)`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printBacklogs(await measureBacklogs());
}
