/**
 * What the CLI prints from the sandbox cannot drive the terminal (issue 32, item 12): a webhook receiver
 * that answers with escape sequences (set the window title, clear the screen) is shown escaped by
 * `paylink events show`, and a delivery's attempts read as words, not `failedx9` (issue 31, item 17).
 * Real processes, a real sandbox and a real receiver.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useSandbox } from '../helpers/sandbox.js';
import { terminalSafe } from '../../src/cli/ui.js';

const sb = useSandbox({ webhookRetry: 'fast' });
const HOSTILE = '\u001b]0;pwned\u0007\u001b[2J\u001b[H\rok\u009b31m';
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(500, { 'content-type': 'text/plain' }).end(HOSTILE));
});
let url = '';
const dir = mkdtempSync(join(tmpdir(), 'paylink-escapes-'));
const payload = join(dir, 'payload.json');
writeFileSync(payload, JSON.stringify({ result: 0, description: 'Ok', header: {}, body: { transaction: { id: 'escape-test' } } }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
});
afterAll(() => server.close());

function paylink(args: string[]) {
  return runCli([...args, '--base-url', sb.url]);
}

describe('escape sequences from the sandbox reach the terminal escaped', () => {
  it("events show prints a receiver's answer with its control characters escaped", async () => {
    const sent = await paylink(['events', 'send', '--type', 'update', '--payload', payload, '--to', url, '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const id = sent.json.id as string;
    await expect
      .poll(async () => (await paylink(['events', 'show', id, '--json'])).json.deliveries[0].attempts as number, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    const shown = await paylink(['events', 'show', id]);
    expect(shown.code, shown.stderr).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may reach the terminal
    expect(shown.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(shown.stdout).toContain('\\x1b]0;pwned\\x07\\x1b[2J');
    expect(shown.stdout).toMatch(/(pending|failed) \(\d+ attempts\)/);
    expect(shown.stdout).not.toMatch(/(pending|failed)x\d/);
  });

  it('keeps colours and line breaks, escapes everything else', () => {
    expect(terminalSafe('\u001b[32mok\u001b[39m\nnext\tcol')).toBe('\u001b[32mok\u001b[39m\nnext\tcol');
    expect(terminalSafe('a\u001b]0;t\u0007b\rc\u001b[2Jd')).toBe('a\\x1b]0;t\\x07b\\x0dc\\x1b[2Jd');
  });
});
