/**
 * Issue 22, item 5: stopping a sandbox with a `paylink listen` attached (its long poll open) took 22-29 s,
 * the poll's remaining wait. Every long poll now answers at once when the sandbox closes. In process, the
 * sandbox runs on manual timers (domain/timers.ts) that never move: `close()` ending at all shows it did not
 * wait for the polls. As a process, SIGTERM ends `paylink sandbox` with exit 0. The figures are printed,
 * never bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ManualTimers, startSandbox } from '../../src/sandbox/index.js';
import { listen } from '../../src/cli/commands/listen.js';
import { runLogs } from '../../src/cli/commands/logs.js';
import { captureUi, spawnCli, until } from '../helpers/cli.js';
import { startReceiver } from '../helpers/webhook-receiver.js';
import { startProcess } from './process.js';

const dir = mkdtempSync(join(tmpdir(), 'paylink-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('close() of startSandbox with a listen and a logs --follow attached answers their long polls instead of waiting for them', async () => {
  const receiver = await startReceiver();
  const timers = new ManualTimers();
  const running = await startSandbox({ port: 0, db: join(dir, 'in-process.db'), timers });
  const controller = new AbortController();
  const conn = { baseUrl: running.url };
  let ready = false;
  const listening = listen(conn, captureUi().ui, { forwardTo: receiver.url, signal: controller.signal, waitSeconds: 30, onReady: () => (ready = true) }).catch(
    (error: unknown) => error,
  );
  const following = runLogs(conn, captureUi().ui, { follow: true, signal: controller.signal, waitSeconds: 30 }).catch((error: unknown) => error);
  try {
    await until(() => ready);
    // Both long polls are waiting (their 25 s waits run on the timers, which never move here).
    await until(() => timers.waitingAtLeast(20_000) >= 2, 10_000);
    const started = performance.now();
    await running.close();
    const ms = performance.now() - started;
    console.log(`close() with listen and logs --follow attached: ${ms.toFixed(0)} ms`);
    expect(timers.waitingAtLeast(20_000)).toBe(0);
  } finally {
    controller.abort();
    await Promise.all([listening, following]);
    await running.close();
    await receiver.close();
  }
});

test('SIGTERM of paylink sandbox with paylink listen attached ends the process cleanly', async () => {
  const receiver = await startReceiver();
  const sandbox = await startProcess(join(dir, 'process.db'));
  const listener = spawnCli(['listen', '--forward-to', receiver.url, '--base-url', sandbox.url], { cwd: dir });
  try {
    await until(() => /Forwarding/.test(listener.out() + listener.err()), 10_000);
    const started = performance.now();
    const code = await sandbox.stop();
    const ms = performance.now() - started;
    console.log(`SIGTERM to exit with listen attached: ${ms.toFixed(0)} ms (exit ${code})`);
    expect(code).toBe(0);
  } finally {
    await sandbox.kill9();
    if (listener.child.exitCode === null && listener.child.signalCode === null) {
      const exited = new Promise((r) => listener.child.once('exit', r));
      listener.child.kill('SIGINT');
      await exited;
    }
    await receiver.close();
  }
});
