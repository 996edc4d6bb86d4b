import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from '../../src/sandbox/context.js';
import { createSandboxApp } from '../../src/sandbox/app.js';
import { linkRequest } from '../helpers/sandbox.js';

// The h3 app createSandboxApp builds is the whole pipeline: served by h3's own toNodeListener (as an
// embedder would mount it) it answers as `startSandbox`'s listener does.
let sandbox: Sandbox;
let server: Server;
let url: string;

beforeAll(async () => {
  sandbox = new Sandbox({ db: ':memory:' });
  const { app, observe } = createSandboxApp(sandbox);
  observe(sandbox.log.observer);
  server = createServer(toNodeListener(app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await sandbox?.close();
});

describe('the h3 app served with toNodeListener', () => {
  it('answers the admin API, the provider API and unknown paths with the envelope', async () => {
    const health = await fetch(`${url}/__sandbox/health`);
    expect(health.status).toBe(200);
    expect((await health.json()).body.status).toBe('up');

    const created = await fetch(`${url}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(linkRequest({ businessId: 'h3-app', transaction: { amount: 10 }, link: { brandIds: [1010] } })),
    }).then((r) => r.json());
    expect(created.result).toBe(0);
    const read = await fetch(`${url}/gateway/v3/paymentlinks/${created.body.link.linkId}?businessId=h3-app`).then((r) => r.json());
    expect(read.body.link.status).toBe('READY');

    const missing = await fetch(`${url}/gateway/v3/nothing`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).body.error.code).toBeTypeOf('number');
    expect(sandbox.unexpectedErrors).toEqual([]);
  });
});
