import { describe, expect, it } from 'vitest';
import { openTunnel } from '../../src/sandbox/admin/tunnel.js';
import { ManualTimers } from '../../src/sandbox/domain/timers.js';

describe('tunnel', () => {
  it('gives up within its timeout with a message that says what to do instead', async () => {
    // On manual timers: it must have given up once its 300 ms have passed, however long the attempt takes.
    const timers = new ManualTimers();
    const opening = openTunnel('http://127.0.0.1:9', { timeoutMs: 300, timers }).catch((e: Error) => e);
    await timers.advance(300);
    const error = await opening;
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^could not open a public tunnel \(.+\)\. .*--public-url/);
  });
});
