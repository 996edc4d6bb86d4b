/**
 * Issue 16, item 12, the smaller ones: an expiry past the year 9999, a clock set to a day that does not exist,
 * token trackingCodes, a UTF-8 byte order mark before the JSON, unusable database files at start, CONNECT.
 */
import { chmodSync, copyFileSync, openSync, statSync, truncateSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { connect } from 'node:net';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { json, linkBody, postJson, runToExit, startProcess, tempDir, type SandboxProcess } from './process.js';

const tmp = tempDir();
let sandbox: SandboxProcess;
beforeAll(async () => {
  sandbox = await startProcess(join(tmp.dir, 'edge.db'));
});
afterAll(async () => {
  await sandbox.stop();
  tmp.remove();
});

const clock = (body: unknown) => postJson(`${sandbox.url}/__sandbox/clock`, body);

describe('dates', () => {
  test('refuses a link whose expiry would pass the year 9999 instead of answering a +010000 date', async () => {
    expect((await clock({ set: '9999-01-01T00:00:00Z' })).status).toBe(200);
    try {
      const body = linkBody('biz-edge');
      body.body.link.duration = 'P365D';
      const res = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, body);
      expect([res.status, res.body.result, res.body.body.error.code]).toEqual([400, -1, 1002]);
      expect(res.body.body.error.message).toContain('body.link.duration');
      expect(JSON.stringify(res.body)).not.toContain('+010000');
      body.body.link.duration = 'P30D';
      const shorter = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, {
        ...body,
        body: { ...body.body, transaction: { ...body.body.transaction, trackingCode: `${body.body.transaction.trackingCode}-b` } },
      });
      expect(shorter.status).toBe(200);
      expect(shorter.body.body.link.expirationTime).toBe('9999-01-31T00:00:00Z');
    } finally {
      await clock({ reset: true });
    }
  });

  test('refuses to set the clock to 2030-02-31 rather than rolling it over to March 3; 2028-02-29 exists', async () => {
    const before = (await json(`${sandbox.url}/__sandbox/clock`)).body.body.offsetMs as number;
    for (const set of ['2030-02-31', '2030-02-31T10:00:00Z', '2030-04-31T00:00:00Z', '2030-13-01T00:00:00Z', '2029-02-29']) {
      const res = await clock({ set });
      expect([res.status, res.body.body.error.code], set).toEqual([400, 1002]);
      expect(res.body.body.error.message).toContain('set');
    }
    expect(Math.abs(((await json(`${sandbox.url}/__sandbox/clock`)).body.body.offsetMs as number) - before)).toBeLessThan(60_000);
    const leap = await clock({ set: '2028-02-29T12:00:00Z', freeze: true });
    expect(leap.status).toBe(200);
    expect(leap.body.body.now).toBe('2028-02-29T12:00:00.000Z');
    await clock({ reset: true });
  });
});

describe('tokens', () => {
  const tokenRequest = (number: string, trackingCode: string) => ({
    header: { businessId: 'biz-edge-tok' },
    body: { trackingCode, card: { holderName: 'Grace Hopper', number, expiryMonth: '10', expiryYear: '2034' } },
  });

  test('refuses a second token of the business with the same trackingCode (2001)', async () => {
    const first = await postJson(`${sandbox.url}/gateway/v3/tokens`, tokenRequest('4111111111111111', 'edge-tok-1'));
    expect(first.status).toBe(200);
    const second = await postJson(`${sandbox.url}/gateway/v3/tokens`, tokenRequest('5555555555554444', 'edge-tok-1'));
    expect([second.status, second.body.body.error?.code]).toEqual([400, 2001]);
    expect(second.body.body.error.message).toContain('body.trackingCode');
    // Another business may use the code.
    const other = await postJson(`${sandbox.url}/gateway/v3/tokens`, {
      ...tokenRequest('5555555555554444', 'edge-tok-1'),
      header: { businessId: 'biz-edge-other' },
    });
    expect(other.status).toBe(200);
  });

  test('a card sent again answers its token with the trackingCode GET returns, not the one just sent', async () => {
    const first = await postJson(`${sandbox.url}/gateway/v3/tokens`, tokenRequest('378282246310005', 'edge-tok-amex'));
    const again = await postJson(`${sandbox.url}/gateway/v3/tokens`, tokenRequest('378282246310005', 'edge-tok-amex-2'));
    expect(again.body.body.token).toBe(first.body.body.token);
    const got = await json(`${sandbox.url}/gateway/v3/tokens/${first.body.body.token}?businessId=biz-edge-tok`);
    expect(got.body.body.trackingCode).toBe('edge-tok-amex');
    expect(again.body.body.trackingCode).toBe(got.body.body.trackingCode);
  });
});

test('takes a JSON body that starts with a UTF-8 byte order mark', async () => {
  const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify(linkBody('biz-edge')))]);
  const res = await json(`${sandbox.url}/gateway/v3/paymentlinks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect([res.status, res.body.result]).toEqual([200, 0]);
});

test('answers CONNECT with a 405 envelope instead of dropping the connection', async () => {
  const { port, hostname } = new URL(sandbox.url);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no answer: ${text}`)), 5000);
  });
  expect(answer).toMatch(/^HTTP\/1\.1 405 /);
  expect(answer.toLowerCase()).toContain('allow: get, head, post');
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  expect([body.result, body.body.error.code]).toEqual([-1, 1405]);
  // The sandbox goes on serving.
  expect((await json(`${sandbox.url}/__sandbox/clock`)).status).toBe(200);
});

describe('unusable database files at start', () => {
  /** A real sandbox database with some links, stopped cleanly. */
  let good: string;
  beforeAll(async () => {
    good = join(tmp.dir, 'good.db');
    const s = await startProcess(good);
    for (let i = 0; i < 300; i++) await postJson(`${s.url}/gateway/v3/paymentlinks`, linkBody('biz-file'));
    await s.stop();
    // Everything into the main file, so that cutting or damaging it cuts or damages stored rows.
    const settle = new Database(good);
    settle.pragma('wal_checkpoint(TRUNCATE)');
    settle.close();
  });

  async function expectRefused(db: string, said: RegExp): Promise<void> {
    const { code, output } = await runToExit(db);
    expect(code, output).toBe(2);
    expect(output).toMatch(said);
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  }

  test('a file that is not SQLite: exit 2 saying so', async () => {
    const db = join(tmp.dir, 'text.db');
    writeFileSync(db, 'id,amount\n1,10\n'.repeat(200));
    await expectRefused(db, /not a usable SQLite database.*move this one away/s);
  });

  test('a truncated database: exit 2 saying so', async () => {
    for (const size of [100, Math.floor(statSync(good).size / 2)]) {
      const db = join(tmp.dir, `truncated-${size}.db`);
      copyFileSync(good, db);
      truncateSync(db, size);
      await expectRefused(db, /not a usable SQLite database|damaged pages/);
    }
  });

  test('a database with damaged pages is refused at start (quick_check) with what to do', async () => {
    const db = join(tmp.dir, 'damaged.db');
    copyFileSync(good, db);
    const pages = statSync(db).size / 4096;
    const fd = openSync(db, 'r+');
    writeSync(fd, Buffer.alloc(3000, 0xff), 0, 3000, Math.floor(pages / 2) * 4096 + 100);
    closeSync(fd);
    await expectRefused(db, /damaged pages \(SQLite's quick_check: .+\)\. Save what can be read with `sqlite3 .+ \.recover/);
  });

  test.skipIf(process.getuid?.() === 0)('a read-only database file: exit 2 saying to make it writable (skipped as root, who writes anyway)', async () => {
    const db = join(tmp.dir, 'readonly.db');
    copyFileSync(good, db);
    chmodSync(db, 0o444);
    await expectRefused(db, /cannot be opened for writing.*writable/s);
  });
});
