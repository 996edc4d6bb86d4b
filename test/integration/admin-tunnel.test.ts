import { describe, expect, it } from 'vitest';
import { openTunnel } from '../../src/sandbox/admin/tunnel.js';

describe('tunnel', () => {
  it('gives up within its timeout with a message that says what to do instead', async () => {
    const started = Date.now();
    const error = await openTunnel('http://127.0.0.1:9', { timeoutMs: 300 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^could not open a public tunnel \(.+\)\. .*--public-url/);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
