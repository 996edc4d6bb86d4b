/**
 * Issue 16, item 10: showing a hosted page wrote a form token (35,671 HEADs in 10 s added 35,671 rows, kept
 * for 24 h of sandbox time). Tokens now carry their own proof (issue time and nonce, signed with the
 * database's secret over the form's target) and are stored only once posted, which keeps them one-time.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { TestSandbox } from '../helpers/sandbox.js';
import { APPROVE, card, openPage, postPage } from '../integration/hosted-form-helpers.js';
import { json, postJson, startProcess, tempDir, type SandboxProcess } from './process.js';

const tmp = tempDir();
const db = join(tmp.dir, 'form-tokens.db');
let sandbox: SandboxProcess;
let sb: TestSandbox;

beforeAll(async () => {
  sandbox = await startProcess(db);
  sb = { url: sandbox.url } as TestSandbox;
});
afterAll(async () => {
  await sandbox.stop();
  tmp.remove();
});

let n = 0;
/** A link payable for a week, so a day's clock advance expires its form tokens but not the link. */
async function newLinkPage(): Promise<{ id: string; page: string }> {
  n += 1;
  const created = await postJson(`${sandbox.url}/gateway/v3/paymentlinks`, {
    header: { businessId: 'biz-forms' },
    body: {
      transaction: { amount: 12, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: `forms-${process.pid}-${n}` },
      link: { duration: 'P7D', brandIds: [1010], returnUrl: 'https://merchant.example/return' },
    },
  });
  expect(created.status).toBe(200);
  const id = created.body.body.link.linkId as string;
  return { id, page: new URL(created.body.body.link.redirect.url as string).pathname };
}

async function paymentsOf(id: string): Promise<number> {
  const res = await json(`${sandbox.url}/gateway/v3/paymentlinks/${id}?businessId=biz-forms`);
  return (res.body.body.payments ?? []).length;
}

/** Rows of every table but the request log (bounded on its own: request-log-size.test.ts), read from another connection. */
function storedRows(): Record<string, number> {
  const other = new Database(db, { readonly: true });
  try {
    const tables = other
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'request_log'")
      .pluck()
      .all() as string[];
    return Object.fromEntries(tables.map((t) => [t, other.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number]));
  } finally {
    other.close();
  }
}

/**
 * Resolves once everything written so far is committed: a write of nothing (clearing no fault rule) goes
 * through the same group commit, after what was deferred before it.
 */
async function committed(): Promise<void> {
  expect((await postJson(`${sandbox.url}/__sandbox/faults/clear`, {})).status).toBe(200);
}

test('1,000 HEADs and GETs of hosted pages add no row to the database', async () => {
  const link = await newLinkPage();
  await committed();
  const before = storedRows();
  for (let i = 0; i < 50; i++) {
    await Promise.all(
      Array.from({ length: 20 }, (_, j) =>
        fetch(sandbox.url + link.page, { method: (i + j) % 2 === 0 ? 'HEAD' : 'GET' }).then(async (r) => {
          expect(r.status).toBe(200);
          await r.arrayBuffer();
        }),
      ),
    );
  }
  await committed();
  expect(storedRows()).toEqual(before);
});

test('a used token cannot pay twice: the second post replays where the first led', async () => {
  const link = await newLinkPage();
  const opened = await openPage(sb, link.page);
  const fields = { formToken: opened.formToken, ...card(APPROVE) };
  const first = await postPage(sb, link.page, fields);
  expect(first.status).toBe(303);
  const second = await postPage(sb, link.page, fields);
  expect([second.status, second.location]).toEqual([303, first.location]);
  expect(await paymentsOf(link.id)).toBe(1);
  expect(storedRows().form_tokens).toBeGreaterThanOrEqual(1);
});

test('a forged, altered or foreign token is refused with the form again and nothing charged', async () => {
  const link = await newLinkPage();
  const other = await newLinkPage();
  const genuine = (await openPage(sb, link.page)).formToken!;
  const flip = (s: string, i: number) => s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  const forged = [
    'made-up',
    Buffer.alloc(36).toString('base64url'),
    flip(genuine, 2), // the issue time
    flip(genuine, 20), // the nonce
    flip(genuine, genuine.length - 3), // the signature
    genuine.slice(0, -1),
    (await openPage(sb, other.page)).formToken!,
  ];
  for (const formToken of forged) {
    const answer = await postPage(sb, link.page, { formToken, ...card(APPROVE) });
    expect([answer.status, answer.state], formToken).toEqual([400, 'form']);
    expect(answer.alert).toMatch(/nothing was charged/);
  }
  expect(await paymentsOf(link.id)).toBe(0);
  // The genuine one still works.
  expect((await postPage(sb, link.page, { formToken: genuine, ...card(APPROVE) })).status).toBe(303);
});

test('a token shown more than 24 hours ago by the sandbox clock is refused; a fresh one pays', async () => {
  const link = await newLinkPage();
  const old = (await openPage(sb, link.page)).formToken!;
  const advanced = await postJson(`${sandbox.url}/__sandbox/clock`, { advance: '25h' });
  expect(advanced.status).toBe(200);
  try {
    const refused = await postPage(sb, link.page, { formToken: old, ...card(APPROVE) });
    expect([refused.status, refused.state]).toEqual([400, 'form']);
    expect(await paymentsOf(link.id)).toBe(0);
    const fresh = (await openPage(sb, link.page)).formToken!;
    expect((await postPage(sb, link.page, { formToken: fresh, ...card(APPROVE) })).status).toBe(303);
  } finally {
    await postJson(`${sandbox.url}/__sandbox/clock`, { reset: true });
  }
});

test('a token survives a restart on the same file (the signing secret is kept in the database)', async () => {
  const link = await newLinkPage();
  const token = (await openPage(sb, link.page)).formToken!;
  await sandbox.stop();
  sandbox = await startProcess(db);
  sb = { url: sandbox.url } as TestSandbox;
  expect((await postPage(sb, link.page, { formToken: token, ...card(APPROVE) })).status).toBe(303);
});
