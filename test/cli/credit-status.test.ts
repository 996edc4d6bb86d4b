/**
 * `paylink status` of a SEPA credit, as a real process against a real sandbox: Waiting, and when it
 * settles by the sandbox clock; after the clock passed it, Ok.
 */
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';

const sb = useSandbox();

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { child, out, err } = spawnCli([...args, '--base-url', sb.url, '--business-id', 'cli-credits', '--no-color']);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out(), err: err() })));
}

describe('paylink status <creditId>', () => {
  it('shows a waiting SEPA credit as Waiting with the time it settles, and Ok once the clock passed it', async () => {
    expect((await sb.post('/__sandbox/clock', { set: '2030-01-07T08:00:00Z', freeze: true })).status).toBe(200);
    const created = await sb.post('/gateway/v3/credits', {
      header: { businessId: 'cli-credits' },
      body: {
        transaction: { trackingCode: uniqueCode('cli'), amount: 12, currencyCode: 'EUR', brandId: 6010 },
        bank: { accountHolderName: 'Ada Lovelace', iban: 'NL91ABNA0417164300' },
      },
    });
    const id = created.body.body.id;
    const waiting = await run(['status', id]);
    expect(waiting.code, waiting.err).toBe(0);
    expect(waiting.out).toContain(`Credit ${id}`);
    expect(waiting.out).toContain('Waiting');
    expect(waiting.out).toContain('2030-01-08T08:00:00Z');
    const json = await run(['status', id, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ kind: 'credit', state: 'Waiting', result: 1 });

    expect((await sb.post('/__sandbox/clock', { advance: '1d' })).status).toBe(200);
    const settled = await run(['status', id, '--json']);
    expect(JSON.parse(settled.out)).toMatchObject({ kind: 'credit', result: 0, description: 'Ok' });
  });
});
