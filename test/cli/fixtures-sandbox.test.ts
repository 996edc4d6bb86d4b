import { spawn, type ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { until } from '../helpers/cli.js';

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;
const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;

interface Started {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function startCli(args: string[], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exited };
}

async function waitFor(started: Started, text: string, ms: number): Promise<void> {
  await until(() => (started.out() + started.err()).includes(text), ms).catch(() => {
    throw new Error(`"${text}" did not appear; stdout: ${started.out()} stderr: ${started.err()}`);
  });
}

describe('paylink sandbox --seed, --deterministic and --tunnel', () => {
  it('says clearly that no tunnel could be opened, keeps serving locally, and loads the seed fixtures', async () => {
    const started = startCli(['sandbox', '--port', '0', '--db', ':memory:', '--tunnel', '--deterministic', '--seed', `${FIXTURES}paid-link.json`], {
      PAYLINK_TUNNEL_TIMEOUT_MS: '2000',
    });
    try {
      await waitFor(started, 'Press Ctrl-C to stop.', 25_000);
      expect(started.err()).toContain('could not open a public tunnel');
      expect(started.err()).toContain('keeps serving locally');
      const url = /Listening on:?\s+(http:\/\/\S+)/.exec(started.out())?.[1] ?? /API:?\s+(http:\/\/\S+)\/gateway\/v3/.exec(started.out())?.[1];
      expect(url).toBeDefined();
      const token = /Admin token:?\s+(\S+)/.exec(started.out())?.[1];
      expect(token, 'a tunnel request turns the admin token on').toBeDefined();
      const linkId = /paid_link:?\s+([0-9a-f-]{36})/.exec(started.out())?.[1];
      expect(linkId).toBeDefined();
      const base = url!.replace(/\/gateway\/v3$/, '');
      const link = await fetch(`${base}/gateway/v3/paymentlinks/${linkId}?businessId=sandbox-business`).then((r) => r.json());
      expect(link.body.link.status).toBe('PAID');
      expect((await fetch(`${base}/__sandbox/clock`)).status).toBe(401);
      expect((await fetch(`${base}/__sandbox/clock`, { headers: { 'x-paylink-admin-token': token! } })).status).toBe(200);
      expect(started.out()).toContain('Deterministic');
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  }, 40_000);

  it('prints one JSON document with its addresses, library hashes and seeded ids under --json', async () => {
    const started = startCli(['--json', 'sandbox', '--port', '0', '--db', ':memory:', '--seed', `${FIXTURES}paid-link.json`]);
    try {
      await waitFor(started, '"tunnelError"', 25_000);
      // The document is written in chunks: wait until the whole of it (its closing brace) has arrived.
      await waitFor(started, '\n}\n', 25_000);
      const summary = JSON.parse(started.out());
      expect(summary.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(summary.api).toBe(`${summary.url}/gateway/v3`);
      expect(summary.adminToken).toBeNull();
      expect(summary.library.checkout.src).toBe(`${summary.url}/checkout/0.1.0/checkout-library.js`);
      const script = await fetch(summary.library.checkout.src).then((r) => r.arrayBuffer());
      const { createHash } = await import('node:crypto');
      expect(summary.library.checkout.integrity).toBe(`sha384-${createHash('sha384').update(Buffer.from(script)).digest('base64')}`);
      const link = await fetch(`${summary.api}/paymentlinks/${summary.seeded.paid_link}?businessId=sandbox-business`).then((r) => r.json());
      expect(link.body.link.status).toBe('PAID');
    } finally {
      started.child.kill('SIGTERM');
      await started.exited;
    }
  }, 40_000);

  it('refuses a seed file with a bad reference before starting, naming the step', async () => {
    const started = startCli(['sandbox', '--port', '0', '--db', ':memory:', '--seed', `${FIXTURES}../test/cli/fixtures/bad-reference.json`]);
    const code = await started.exited;
    expect(code).toBe(2);
    expect(started.err()).toMatch(
      /--seed: .*bad-reference\.json: step 2 "pay_it": \$\{missing_link:body\.link\.linkId\} refers to "missing_link", which is not an earlier step/,
    );
  });

  it('stops with exit code 3 when a seed step fails, naming the step and what the API answered', async () => {
    const started = startCli(['sandbox', '--port', '0', '--db', ':memory:', '--seed', `${FIXTURES}../test/cli/fixtures/failing-step.json`]);
    const code = await started.exited;
    expect(code).toBe(3);
    expect(started.err()).toContain('failing-step.json: step 1 "too_cheap" failed: POST');
    expect(started.err()).toContain('Invalid property value: body.transaction.amount');
  });
});
