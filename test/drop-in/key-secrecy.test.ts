/**
 * paylink's local authority's private key stays in its 0600 file: it is in no request log, snapshot,
 * database, dashboard page, `paylink sandbox --json` document or `paylink env --json` document.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSandbox } from '../../src/cli/commands/sandbox.js';
import { dropInEnv } from '../../src/cli/commands/env.js';
import type { RunningSandbox } from '../../src/sandbox/index.js';
import { captureUi } from '../helpers/cli.js';
import { fetchThrough } from '../helpers/proxy-client.js';

describe("the authority's private key", () => {
  let dir: string;
  let running: RunningSandbox;
  let printed: string;
  let keyParts: string[];
  const savedConfig = process.env.XDG_CONFIG_HOME;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'paylink-key-'));
    process.env.XDG_CONFIG_HOME = join(dir, 'config');
    const { ui, out } = captureUi({ json: true });
    running = await runSandbox({ port: '0', host: '127.0.0.1', db: join(dir, 'sandbox.db'), proxy: '0', https: true }, ui);
    printed = out();
    const key = readFileSync(join(dir, 'config', 'paylink', 'ca', 'ca-key.pem'), 'utf8');
    // Every 24-character run of the key's base64: no part of it may show anywhere.
    const body = key.replace(/-----[^-]+-----|\s/g, '');
    keyParts = [];
    for (let i = 0; i + 24 <= body.length; i += 12) keyParts.push(body.slice(i, i + 24));
    const ca = readFileSync(running.authorityFile!, 'utf8');
    await fetchThrough(running.proxyUrl!, ca, 'https://stagconnect.acehubpaymentservices.com/gateway/v3/paymentlinks', {
      body: {
        header: { businessId: 'key-biz' },
        body: {
          transaction: { amount: 1, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: 'key-test-1' },
          link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://shop.example/r' },
        },
      },
    });
  });
  afterAll(async () => {
    await running?.close();
    if (savedConfig === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = savedConfig;
    rmSync(dir, { recursive: true, force: true });
  });

  const leaks = (text: string) => keyParts.filter((part) => text.includes(part));

  it('is not in paylink sandbox --json, which names the authority certificate only', () => {
    const doc = JSON.parse(printed);
    expect(doc.authority).toBe(join(dir, 'config', 'paylink', 'ca', 'ca.pem'));
    expect(doc.proxy).toBe(running.proxyUrl);
    expect(leaks(printed)).toEqual([]);
    expect(printed).not.toContain('PRIVATE KEY');
  });

  it('is not in the request log, the dashboard, a snapshot or the database', async () => {
    const ca = readFileSync(running.authorityFile!, 'utf8');
    const direct = async (path: string, init?: RequestInit) => {
      const { request } = await import('node:https');
      return new Promise<string>((resolve, reject) => {
        const req = request(
          `${running.url}${path}`,
          { method: init?.method ?? 'GET', ca, headers: init?.body ? { 'content-type': 'application/json' } : {} },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          },
        );
        req.on('error', reject);
        req.end(init?.body as string | undefined);
      });
    };
    const log = await direct('/__sandbox/requests');
    expect(log).toContain('key-test-1');
    expect(leaks(log)).toEqual([]);
    expect(leaks(await direct('/'))).toEqual([]);
    await direct('/__sandbox/snapshots', { method: 'POST', body: JSON.stringify({ name: 'key-check' }) });
    expect(leaks(await direct('/__sandbox/snapshots'))).toEqual([]);
    const db = readFileSync(join(dir, 'sandbox.db')).toString('latin1');
    expect(leaks(db)).toEqual([]);
  });

  it('is not in paylink env --json', () => {
    const env = dropInEnv({ url: running.url, proxy: running.proxyUrl, authority: running.authorityFile });
    expect(leaks(JSON.stringify(env))).toEqual([]);
    expect(readFileSync(env.bundle, 'utf8')).not.toContain('PRIVATE KEY');
  });
});
