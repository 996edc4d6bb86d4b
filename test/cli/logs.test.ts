import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { eventually, linkRequest, useSandbox } from '../helpers/sandbox.js';
import { runLogs } from '../../src/cli/commands/logs.js';
import { runClock } from '../../src/cli/commands/clock.js';
import { runReset } from '../../src/cli/commands/reset.js';
import { Ui } from '../../src/cli/ui.js';
import { captureUi, spawnCli, until } from '../helpers/cli.js';
import { startReceiver } from '../helpers/webhook-receiver.js';

const sb = useSandbox();

describe('paylink logs', () => {
  it('prints the newest requests with method, path and status, filtered by business', async () => {
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'logs-cli' }));
    await sb.get('/gateway/v3/paymentlinks/unknown-id?businessId=logs-cli');
    const { ui, out } = captureUi();
    const entries = await runLogs({ baseUrl: sb.url }, ui, { businessId: 'logs-cli' });
    expect(entries).toHaveLength(2);
    expect(out()).toMatch(/POST {1}\/gateway\/v3\/paymentlinks 200/);
    expect(out()).toMatch(/GET {2}\/gateway\/v3\/paymentlinks\/unknown-id\?businessId=logs-cli 404 .*Payment link not found/);
  });

  it('shows each webhook delivery attempt beside the requests: event type, attempt, receiver and its answer', async () => {
    const receiver = await startReceiver();
    try {
      receiver.answer(204);
      const added = await sb.post('/__sandbox/webhooks', { businessId: 'logs-hooks', url: `${receiver.url}/hooks` });
      expect(added.status, added.text).toBe(200);
      const paid = await sb.post('/gateway/v3/payments', {
        action: 'payment',
        header: { businessId: 'logs-hooks' },
        body: {
          transaction: { amount: 5, currencyCode: 'EUR', trackingCode: `logs-hook-${Date.now()}` },
          card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada' },
        },
      });
      expect(paid.body.result).toBe(0);
      await receiver.waitFor(1);
      // The attempt is logged once the receiver's answer is recorded: poll the log until it shows.
      const { ui, out } = captureUi();
      const entries = await eventually(
        () => runLogs({ baseUrl: sb.url }, captureUi().ui, { businessId: 'logs-hooks' }),
        (found) => found.some((e) => e.kind === 'webhook'),
      );
      await runLogs({ baseUrl: sb.url }, ui, { businessId: 'logs-hooks' });
      const delivery = entries.find((e) => e.kind === 'webhook')!;
      expect(delivery).toMatchObject({ method: 'POST', path: `${receiver.url}/hooks`, status: 204, businessId: 'logs-hooks' });
      expect(delivery.request).toMatchObject({ type: 'Transaction.Create', payment: paid.body.body.id, attempt: 1 });
      expect(out()).toMatch(new RegExp(`-> webhook Transaction\\.Create #1 ${receiver.url.replace(/[.]/g, '\\.')}/hooks 204`));
      // `--path http://` keeps only the deliveries: their path is the receiver's URL.
      const onlyDeliveries = await runLogs({ baseUrl: sb.url }, captureUi().ui, { businessId: 'logs-hooks', path: 'http://' });
      expect(onlyDeliveries.length).toBeGreaterThan(0);
      expect(onlyDeliveries.every((e) => e.kind === 'webhook')).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('follows: shows a request made after it started, one JSON per line with --json, and stops on abort', async () => {
    const { ui, out } = captureUi({ json: true });
    const controller = new AbortController();
    let ready!: () => void;
    const started = new Promise<void>((r) => (ready = r));
    const following = runLogs({ baseUrl: sb.url }, ui, {
      follow: true,
      businessId: 'follow-cli',
      limit: 5,
      signal: controller.signal,
      waitSeconds: 5,
      onReady: ready,
    });
    await started;
    const request = linkRequest({ businessId: 'follow-cli' }) as any;
    request.body.card = { number: '5555555555554444', cvv: '737' };
    await sb.post('/gateway/v3/paymentlinks', request);
    await until(() => out().includes('follow-cli'));
    controller.abort();
    const entries = await following;
    expect(entries.map((e) => e.businessId)).toEqual(['follow-cli']);
    const lines = out().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ method: 'POST', path: '/gateway/v3/paymentlinks', status: 200 });
    expect(out()).not.toContain('5555555555554444');
    expect(out()).not.toContain('737');
  });

  it('follows from a spawned `paylink logs --follow` process', async () => {
    const spawned = spawnCli(['logs', '--follow', '--json', '--base-url', sb.url, '--business', 'spawned-follow']);
    const { child, out, err } = spawned;
    try {
      // A request made before: the process prints it from its first page, and follows from there on.
      const lines = () =>
        out()
          .split('\n')
          .filter((l) => l.trim() !== '');
      await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'spawned-follow' }));
      await until(() => lines().length >= 1 || spawned.child.exitCode !== null, 15_000);
      expect(lines(), err()).toHaveLength(1);
      // A request made after that is printed by the follow.
      await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'spawned-follow' }));
      await until(() => lines().length >= 2, 15_000);
      expect(JSON.parse(lines()[1]!)).toMatchObject({ businessId: 'spawned-follow', status: 200 });
    } finally {
      child.kill('SIGINT');
      await new Promise((r) => child.once('exit', r));
    }
  });
});

describe('paylink clock and reset', () => {
  it('advances, shows and resets the clock', async () => {
    const { ui, out } = captureUi();
    const moved = await runClock({ baseUrl: sb.url }, ui, { advance: '31m' });
    expect(moved.offsetMs).toBeGreaterThanOrEqual(31 * 60_000 - 1000);
    expect(out()).toContain('+31m from the wall clock');
    const back = await runClock({ baseUrl: sb.url }, ui, { reset: true });
    expect(back.offsetMs).toBe(0);
  });

  it('refuses to reset without --yes when nobody can confirm, and resets with it', async () => {
    const { ui } = captureUi();
    await expect(runReset({ baseUrl: sb.url }, ui, {})).rejects.toThrow('pass --yes');
    const asked: string[] = [];
    const prompter = {
      input: async () => '',
      checkbox: async () => [],
      select: async <T>(q: { message: string; choices: Array<{ value: T }> }) => {
        asked.push(q.message);
        return q.choices[0]!.value;
      },
    };
    const person = new Ui({ stdout: new PassThrough(), stderr: new PassThrough() }, { interactive: true, prompter, env: {} });
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'reset-kept' }));
    const declined = await runReset({ baseUrl: sb.url }, person, {});
    expect(declined).toBeUndefined();
    expect(asked[0]).toContain('Delete every link');
    expect((await sb.get('/__sandbox/links?businessId=reset-kept')).body.body.total).toBe(1);
    await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'reset-cli' }));
    const deleted = await runReset({ baseUrl: sb.url }, ui, { yes: true });
    expect(deleted!.links).toBeGreaterThanOrEqual(1);
  });

  it('says how to pass the admin token when the sandbox asks for one', async () => {
    const { ui } = captureUi();
    const guarded = await import('../../src/sandbox/index.js').then((m) => m.startSandbox({ port: 0, db: ':memory:', adminToken: 'tok-123' }));
    try {
      await expect(runClock({ baseUrl: guarded.url }, ui)).rejects.toThrow(/--admin-token or set PAYLINK_ADMIN_TOKEN/);
      const ok = await runClock({ baseUrl: guarded.url, adminToken: 'tok-123' }, ui);
      expect(ok.frozen).toBe(false);
    } finally {
      await guarded.close();
    }
  });
});
