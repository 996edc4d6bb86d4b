/**
 * `paylink api <METHOD> <path>` as a real process against a real sandbox with credentials on: the base URL,
 * Basic credentials and business id are filled in, the answer is printed, and exit codes follow the others.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uniqueCode, useSandbox } from '../helpers/sandbox.js';
import { spawnCli } from '../helpers/cli.js';

const sb = useSandbox({ credentials: [{ username: 'merchant', password: 's3cret', businessIds: ['api-shop', 'other-shop'] }] });

const BIN = new URL('../../bin/paylink.js', import.meta.url).pathname;

function run(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const { child, out, err } = spawnCli([...args, '--base-url', sb.url, '--business-id', 'api-shop', '--username', 'merchant', '--password', 's3cret']);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, out: out(), err: err() })));
}

function paymentData(trackingCode: string, header?: Record<string, unknown>) {
  return JSON.stringify({
    action: 'payment',
    ...(header ? { header } : {}),
    body: {
      transaction: { amount: 10, currencyCode: 'EUR', trackingCode },
      card: { number: '4111111111111111', cvv: '123', expiryMonth: '12', expiryYear: '2035', holderName: 'Ada Lovelace' },
    },
  });
}

describe('paylink api', () => {
  it('POSTs with header.businessId and credentials filled in, then GETs by id and by tracking code (businessId in the query)', async () => {
    const code = uniqueCode('api');
    const created = await run(['api', 'POST', 'payments', '--data', paymentData(code), '--json']);
    expect(created.code, created.err).toBe(0);
    const envelope = JSON.parse(created.out);
    expect(envelope).toMatchObject({ result: 0, body: { trackingCode: code } });

    const read = await run(['api', 'GET', `/gateway/v3/payments/${envelope.body.id}`]);
    expect(read.code, read.err).toBe(0);
    expect(JSON.parse(read.out).body.id).toBe(envelope.body.id);

    const found = await run(['api', 'GET', `payments?trackingCode=${code}`, '--json']);
    expect(found.code).toBe(0);
    expect(JSON.parse(found.out)).toHaveLength(1);

    // A business given in the request wins over --business-id.
    const other = await run(['api', 'GET', `payments?trackingCode=${code}&businessId=other-shop`, '--json']);
    expect(JSON.parse(other.out)).toEqual([]);
  });

  it('reads --data from a file and from standard input, keeping a header the body gives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-api-'));
    const file = join(dir, 'payment.json');
    writeFileSync(file, paymentData(uniqueCode('api-file'), { businessId: 'other-shop' }));
    const fromFile = await run(['api', 'POST', 'payments', '--data', `@${file}`, '--json']);
    expect(fromFile.code, fromFile.err).toBe(0);
    const id = JSON.parse(fromFile.out).body.id;
    const owned = await run(['api', 'GET', `payments/${id}?businessId=other-shop`, '--json']);
    expect(owned.code).toBe(0);

    const child = spawn(
      process.execPath,
      [
        BIN,
        'api',
        'POST',
        'payments',
        '--data',
        '@-',
        '--json',
        '--base-url',
        sb.url,
        '--business-id',
        'api-shop',
        '--username',
        'merchant',
        '--password',
        's3cret',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.stdin.end(paymentData(uniqueCode('api-stdin')));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code, err).toBe(0);
    expect(JSON.parse(out).result).toBe(0);
  });

  it('prints an error answer and exits 3; with --json the envelope is the one document', async () => {
    const declined = await run(['api', 'POST', 'payments', '--data', paymentData(uniqueCode('api-bad')).replace('4111111111111111', '4000000000000002')]);
    expect(declined.code).toBe(3);
    expect(JSON.parse(declined.out)).toMatchObject({ result: -4 });
    expect(declined.err).toContain('Declined');

    const invalid = await run(['api', 'POST', 'payments', '--data', '{"action":"payment","body":{}}', '--json']);
    expect(invalid.code).toBe(3);
    expect(JSON.parse(invalid.out)).toMatchObject({ result: -1, body: { error: { code: 1004 } } });

    const missingLink = await run(['api', 'GET', 'links/no-such-link', '--json']);
    expect(missingLink.code).toBe(3);
    expect(JSON.parse(missingLink.out)).toMatchObject({ body: { error: { code: 1404 } } });

    // The provider answered an unknown payment with a bare HTTP 404 (docs/api.md): no envelope to print.
    const missingPayment = await run(['api', 'GET', 'payments/no-such-payment', '--json']);
    expect(missingPayment.code).toBe(3);
    expect(JSON.parse(missingPayment.out).error.message).toContain('HTTP 404');
  });

  it('refuses bad usage with exit code 2 before sending anything', async () => {
    for (const args of [
      ['api', 'DELETE', 'payments/x'],
      ['api', 'POST', 'payments', '--data', '{not json'],
      ['api', 'POST', 'payments', '--data', '[1,2]'],
      ['api', 'GET', 'payments/x', '--data', '{}'],
      ['api', 'POST', 'payments', '--data', '@/nonexistent/file.json'],
      ['api', 'GET', 'http://elsewhere.example/gateway/v3/payments'],
    ]) {
      const result = await run(args);
      expect(result.code, `${args.join(' ')}: ${result.err}`).toBe(2);
      expect(result.err.length).toBeGreaterThan(0);
    }
  });

  it('without the credentials the sandbox answers 401, exit 3', async () => {
    const { child, out } = spawnCli(['api', 'GET', 'payments/x', '--json', '--base-url', sb.url]);
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(3);
    expect(JSON.parse(out())).toMatchObject({ result: -6 });
  });
});
