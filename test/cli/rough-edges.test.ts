/**
 * What a new user hit first (issue 15), each against the spawned CLI: Ctrl-C at prompts, the fixtures glob,
 * closed pipes, prompts that check each answer, finding a sandbox on another port, usage errors, resolving
 * an id's kind, `open` without a browser, typo help, `--timeout`, the list commands, `open dashboard`,
 * `version` and fish completion. Prompts run on a real pseudo-terminal (util-linux `script`).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/cli/config.js';
import { brandName, parseAmount, parseCurrency } from '../../src/cli/options.js';
import { requireAmount, requireCurrency } from '../../src/sandbox/http/fields.js';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { BIN, CTRL_C, ENTER, hasScript, runInTty } from '../helpers/tty.js';
import { runCli, type CliRun } from '../helpers/cli.js';

const sb = useSandbox();
const FIXTURES = new URL('../../fixtures/', import.meta.url).pathname;
let cwd: string;

/** Runs the CLI without a TTY (CI=1) in a temp folder; `--base-url` of the test sandbox unless `baseUrl` is null. */
function paylink(args: string[], options: { env?: Record<string, string>; baseUrl?: string | null; dir?: string } = {}): Promise<CliRun> {
  const base = options.baseUrl === null ? [] : ['--base-url', options.baseUrl ?? sb.url];
  return runCli([...args, ...base], { cwd: options.dir ?? cwd, ...(options.env ? { env: options.env } : {}) });
}

async function createLink(businessId = 'sandbox-business', patch: Record<string, unknown> = {}): Promise<string> {
  const created = await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId, link: { returnUrl: 'http://127.0.0.1:9/return' }, transaction: patch }));
  return created.body.body.link.linkId as string;
}

beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'paylink-rough-'));
});
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

describe.runIf(hasScript)('Ctrl-C at a prompt (1)', () => {
  it('ends `checkout create` with "Cancelled." and exit 130, no stack and nothing created', async () => {
    const before = (await sb.get('/__sandbox/checkouts')).body.body.total;
    const run = await runInTty(['checkout', 'create', '--base-url', sb.url], [{ when: /Currency/, send: CTRL_C }], { cwd });
    expect(run.code).toBe(130);
    expect(run.screen).toContain('Cancelled.');
    expect(run.screen).not.toMatch(/ExitPromptError|unexpected failure|at .*\.js:\d+/);
    expect((await sb.get('/__sandbox/checkouts')).body.body.total).toBe(before);
  });

  it('ends `pay <id>` at the outcome question with exit 130 and no attempt', async () => {
    const id = await createLink();
    const run = await runInTty(['pay', id, '--base-url', sb.url], [{ when: /What should the customer do/, send: CTRL_C }], { cwd });
    expect(run.code).toBe(130);
    expect(run.screen).toContain('Cancelled.');
    const link = await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=sandbox-business`);
    expect(link.body.body.link.status).toBe('READY');
  });

  it('ends `reset` at its question with exit 130 and deletes nothing', async () => {
    const id = await createLink();
    const run = await runInTty(['reset', '--base-url', sb.url], [{ when: /Delete every link/, send: CTRL_C }], { cwd });
    expect(run.code).toBe(130);
    expect(run.screen).toContain('Cancelled.');
    expect((await sb.get(`/gateway/v3/paymentlinks/${id}?businessId=sandbox-business`)).status).toBe(200);
  });
});

describe('fixtures glob (2)', () => {
  it('loads `fixtures/*.json`, skipping fixtures/schema.json, as README documents', async () => {
    const files = readdirJson(FIXTURES);
    expect(files).toContain(join(FIXTURES, 'schema.json'));
    const run = await paylink(['fixtures', 'load', ...files, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.ids).toHaveProperty('paid_link');
    const people = await paylink(['fixtures', 'load', join(FIXTURES, 'paid-link.json'), join(FIXTURES, 'schema.json')]);
    expect(people.code, people.stderr).toBe(0);
    expect(people.stderr).toContain(`Skipped ${join(FIXTURES, 'schema.json')}: a JSON Schema, not a fixture file.`);
  });

  it('still refuses a list that holds only the schema (exit 2)', async () => {
    const run = await paylink(['fixtures', 'load', join(FIXTURES, 'schema.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no fixture file here');
  });
});

function readdirJson(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => join(dir, f));
}

/** Spawns the CLI with a stdout whose reader has already gone: every write fails with EPIPE. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('closed pipes (3)', () => {
  it('ends `--help` and `status <id>` quietly when the reader of stdout has gone (`| head -1`)', async () => {
    const id = await createLink();
    for (let i = 0; i < 4; i++) {
      for (const args of [['--help'], ['status', id, '--base-url', sb.url], ['link', 'list', '--base-url', sb.url]]) {
        const run = await withClosedStdout(args);
        expect(run.stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled|Error/);
        expect(run.code, args.join(' ')).toBe(0);
      }
    }
  });
});

describe('prompts check each answer with the API rules (4)', () => {
  it('gives the same verdict as the API for amounts and currencies (one source: domain/money.ts)', () => {
    const verdict = (f: () => unknown) => {
      try {
        f();
        return 'ok';
      } catch {
        return 'refused';
      }
    };
    for (const [amount, currency] of [
      ['12.50', 'EUR'],
      ['12.345', 'EUR'],
      ['12.345', 'BHD'],
      ['12.5', 'JPY'],
      ['1000', 'JPY'],
      ['1000000000', 'EUR'],
      ['0.001', 'KWD'],
    ] as const) {
      expect(
        verdict(() => parseAmount(amount, '--amount', currency)),
        `${amount} ${currency}`,
      ).toBe(verdict(() => requireAmount(Number(amount), 'amount', currency)));
    }
    for (const currency of ['EUR', 'eur', 'XYZ', 'EU', 'JPY', 'KWD']) {
      expect(
        verdict(() => parseCurrency(currency)),
        currency,
      ).toBe(verdict(() => requireCurrency(currency, 'currency')));
    }
  });

  it.runIf(hasScript)('refuses currency xyz and amount 12.345 (EUR) where they are typed, keeping the later answers', async () => {
    const run = await runInTty(
      ['link', 'create', '--base-url', sb.url, '--json'],
      [
        { when: /Currency/, send: `\u007f\u007f\u007fxyz${ENTER}` },
        { when: /currency code the sandbox knows/, send: `\u007f\u007f\u007fEUR${ENTER}` },
        { when: /Amount \(EUR\)/, send: `12.345${ENTER}` },
        { when: /EUR takes at most 2 decimals/, send: `\u007f${ENTER}` },
        { when: /Return URL/, send: ENTER },
        { when: /Card brands offered/, send: ENTER },
      ],
      { cwd },
    );
    expect(run.code, run.screen).toBe(0);
    expect(run.screen).toMatch(/"amount": 12\.34/);
    expect(run.screen).toMatch(/"currencyCode": "EUR"/);
  });

  it('refuses --amount 12.345 --currency EUR as a usage error before sending anything', async () => {
    const run = await paylink(['link', 'create', '--amount', '12.345', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('EUR takes at most 2 decimals');
  });
});

describe('finding a sandbox on another port (5)', () => {
  it('prints PAYLINK_BASE_URL=..., and commands run from its folder (or below) find it without --base-url; its entry goes on exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-state-'));
    const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '--db', ':memory:'], {
      cwd: dir,
      env: { PATH: process.env.PATH, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await expect.poll(() => /PAYLINK_BASE_URL=(\S+)/.exec(out)?.[1], { timeout: 15_000 }).toBeDefined();
      const url = /PAYLINK_BASE_URL=(\S+)/.exec(out)![1]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url).not.toBe('http://127.0.0.1:8417');
      const entries = join(dir, '.paylink', 'sandboxes');
      expect(readdirSync(entries)).toEqual([`memory-${child.pid}.json`]);
      const state = join(entries, readdirSync(entries)[0]!);
      expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ url, pid: child.pid, db: ':memory:' });
      const sub = join(dir, 'app', 'src');
      mkdirSync(sub, { recursive: true });
      for (const where of [dir, sub]) {
        const run = await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'], {
          baseUrl: null,
          dir: where,
        });
        expect(run.code, run.stderr).toBe(0);
        expect(run.json.body.link.redirect.url.startsWith(url)).toBe(true);
      }
      expect(resolveConnection({}, {}, sub).baseUrl).toBe(url);
      // A flag or the environment still wins over the file.
      expect(resolveConnection({}, { PAYLINK_BASE_URL: 'http://127.0.0.1:1' }, dir).baseUrl).toBe('http://127.0.0.1:1');
      child.kill('SIGINT');
      await new Promise((resolve) => child.on('close', resolve));
      expect(existsSync(state)).toBe(false);
      // The folder's sandbox has stopped: an error saying so, not the default URL (another project's sandbox).
      expect(() => resolveConnection({}, {}, dir)).toThrow(/No sandbox is running for this folder/);
    } finally {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('usage errors, lookups, open, typos, timeouts (6)', () => {
  it('calls `clock advance banana` a usage error (exit 2) and leaves the clock alone', async () => {
    const run = await paylink(['clock', 'advance', 'banana']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('clock advance: expected a duration');
    expect((await paylink(['clock', 'advance', '1m', '--json'])).code).toBe(0);
    await paylink(['clock', 'reset']);
  });

  it('reads `status <paymentId>` with one API request and no 404 in the request log', async () => {
    const payment = await paylink(['payment', 'create', '--amount', '3', '--currency', 'EUR', '--json']);
    const id = payment.json.body.transaction.id as string;
    const { lastSeq } = (await sb.get('/__sandbox/requests?limit=1')).body.body;
    const run = await paylink(['status', id, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.kind).toBe('payment');
    const after = (await sb.get(`/__sandbox/requests?since=${lastSeq}`)).body.body.requests as Array<{ status: number; path: string }>;
    expect(after.map((r) => `${r.status} ${r.path}`)).toEqual([`200 /gateway/v3/payments/${id}`]);
    const missing = await paylink(['status', '00000000-0000-4000-8000-000000000000']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('No payment link, checkout or payment');
  });

  it('says no browser could be opened when the launcher finds none, and prints the URL', async () => {
    const id = await createLink();
    const empty = mkdtempSync(join(tmpdir(), 'paylink-nobrowser-'));
    try {
      // A desktop session (DISPLAY) with no browser: xdg-open finds no handler and exits 3.
      const env = { DISPLAY: ':99', BROWSER: 'false', HOME: empty, XDG_DATA_DIRS: empty, XDG_DATA_HOME: empty, XDG_CONFIG_HOME: empty, CI: '' };
      const run = await paylink(['open', id], { env });
      expect(run.code).toBe(0);
      expect(run.stderr).not.toContain('Opened');
      expect(run.stderr).toMatch(/No browser could be opened \(.*exited with code \d+(: [^)]*)?\)/);
      expect(run.stdout.trim()).toBe(`${sb.url}/gateway/v3/web/paymentlinks/${id}`);
      const json = await paylink(['open', id, '--json'], { env });
      expect(json.json).toMatchObject({ kind: 'link', id, opened: false });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('answers a command typo with "Did you mean" and a one-line hint, not the whole help', async () => {
    const run = await paylink(['stauts', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('(Did you mean status?)');
    expect(run.stderr).not.toContain('Usage:');
    expect(run.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
  });

  describe('a server that never answers', () => {
    let silent: Server;
    let url: string;
    /** Connections the CLI closed (the server never answers nor closes one while the test runs). */
    let closedByClient = 0;
    beforeAll(async () => {
      silent = createServer(() => {});
      silent.on('connection', (socket) => socket.on('close', () => (closedByClient += 1)));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    });
    afterAll(() => {
      silent.closeAllConnections();
      silent.close();
    });

    it('gives up after --timeout seconds (exit 4) and says how to wait longer', async () => {
      const run = await paylink(['link', 'get', 'x', '--timeout', '1'], { baseUrl: url });
      expect(run.code).toBe(4);
      expect(run.stderr).toContain('did not answer within 1 s');
      expect(run.stderr).toContain('--timeout');
      // It let go of the connection itself (the server never answers): the end the CLI chose, not a kill by
      // the test's own time limit (which would not give exit 4). No wall-clock bound: a loaded machine is slow.
      await expect.poll(() => closedByClient).toBeGreaterThanOrEqual(1);
      expect((await paylink(['link', 'get', 'x', '--timeout', 'soon'], { baseUrl: url })).code).toBe(2);
    });

    it('waits 10 s by default for a local sandbox, 30 s elsewhere, PAYLINK_TIMEOUT between', () => {
      expect(resolveConnection({ baseUrl: 'http://127.0.0.1:8417' }, {}, cwd).timeoutMs).toBe(10_000);
      expect(resolveConnection({ baseUrl: 'http://localhost:8417' }, {}, cwd).timeoutMs).toBe(10_000);
      expect(resolveConnection({ baseUrl: 'https://api.example' }, {}, cwd).timeoutMs).toBe(30_000);
      expect(resolveConnection({ baseUrl: 'https://api.example' }, { PAYLINK_TIMEOUT: '2.5' }, cwd).timeoutMs).toBe(2500);
    });
  });
});

describe('list commands, open dashboard, version, fish completion (7)', () => {
  it('lists links newest first with --status, --tracking-code, --since, --limit and --json', async () => {
    const business = `list-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await createLink(business, { trackingCode: `list-code-${business}-${i}` }));
    await sb.post(`/gateway/v3/paymentlinks/${ids[0]}/cancel`, { header: { businessId: business }, body: {} });
    const all = await paylink(['link', 'list', '--business-id', business, '--json']);
    expect(all.code, all.stderr).toBe(0);
    expect(all.json).toMatchObject({ kind: 'link', businessId: business, total: 3, limit: 20 });
    expect(all.json.items.map((i: any) => i.id)).toEqual([...ids].reverse());
    expect(all.json.items[0]).toMatchObject({ state: 'READY', amount: 12.5, currencyCode: 'EUR', attempts: 0 });
    expect(all.json.items[0].createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);

    const cancelled = await paylink(['link', 'list', '--business-id', business, '--status', 'cancelled', '--json']);
    expect(cancelled.json.items.map((i: any) => i.id)).toEqual([ids[0]]);
    const byCode = await paylink(['link', 'list', '--business-id', business, '--tracking-code', `list-code-${business}-1`, '--json']);
    expect(byCode.json.items.map((i: any) => i.id)).toEqual([ids[1]]);
    const limited = await paylink(['link', 'list', '--business-id', business, '--limit', '2', '--json']);
    expect(limited.json).toMatchObject({ total: 3, limit: 2 });
    expect(limited.json.items).toHaveLength(2);
    expect((await paylink(['link', 'list', '--business-id', business, '--since', '1h', '--json'])).json.total).toBe(3);
    expect((await paylink(['link', 'list', '--business-id', business, '--since', '2999-01-01T00:00:00Z', '--json'])).json.total).toBe(0);
    expect((await paylink(['link', 'list', '--since', 'yesterday'])).code).toBe(2);
    expect((await paylink(['link', 'list', '--limit', '0'])).code).toBe(2);

    const people = await paylink(['link', 'list', '--business-id', business, '--limit', '2']);
    expect(people.stdout).toMatch(/LINK ID\s+STATE\s+AMOUNT/);
    expect(people.stdout).toContain('12.50 EUR');
    expect(people.stderr).toContain('Showing the newest 2 of 3');
  });

  it('lists checkouts and payments the same way', async () => {
    const business = `list2-${Date.now()}`;
    const checkout = await sb.post('/gateway/v3/checkouts', {
      header: { businessId: business },
      body: {
        transaction: { amount: 20, currencyCode: 'EUR', trackingCode: `co-${business}` },
        checkout: { brandIds: [1010], returnUrl: 'https://merchant.example/r' },
      },
    });
    const checkouts = await paylink(['checkout', 'list', '--business-id', business, '--status', 'pending', '--json']);
    expect(checkouts.json.items.map((i: any) => i.id)).toEqual([checkout.body.body.checkout.checkoutId]);
    const ok = await paylink(['payment', 'create', '--amount', '4', '--currency', 'EUR', '--business-id', business, '--json']);
    const declined = await paylink(['payment', 'create', '--amount', '4', '--currency', 'EUR', '--outcome', 'declined', '--business-id', business, '--json']);
    const payments = await paylink(['payment', 'list', '--business-id', business, '--json']);
    expect(payments.json.items.map((i: any) => [i.id, i.state])).toEqual([
      [declined.json.body.transaction.id, 'DECLINED'],
      [ok.json.body.transaction.id, 'OK'],
    ]);
    expect(payments.json.items[1]).toMatchObject({ result: 0, action: 'payment', brandId: 1010, lastFourDigits: '1111' });
    const onlyDeclined = await paylink(['payment', 'list', '--business-id', business, '--status', 'declined', '--json']);
    expect(onlyDeclined.json.items).toHaveLength(1);
  });

  it('prints the dashboard URL with `open dashboard --print`', async () => {
    const run = await paylink(['open', 'dashboard', '--print', '--json']);
    expect(run.json).toEqual({ kind: 'dashboard', url: `${sb.url}/`, opened: false });
  });

  it('prints the CLI, API, library and Node versions with `paylink version`', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const run = await paylink(['version', '--json']);
    expect(run.json).toEqual({
      cli: pkg.version,
      api: 'v3',
      library: { paymentlink: pkg.version, checkout: pkg.version },
      node: process.version,
      sandbox: { baseUrl: sb.url, reachable: true },
    });
    const people = await paylink(['version']);
    expect(people.stdout).toContain(`paylink ${pkg.version}`);
  });

  it('prints a fish completion script with every command and the outcome values', async () => {
    const run = await paylink(['completion', 'fish'], { baseUrl: null });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("complete -c paylink -n '__fish_use_subcommand' -a link");
    expect(run.stdout).toMatch(/__fish_seen_subcommand_from link; and not __fish_seen_subcommand_from [a-z ]*list[a-z ]*' -a list/);
    expect(run.stdout).toMatch(/-l outcome -r -f -a '[^']*insufficient-funds/);
    for (const word of ['version', 'open', 'pay', 'status']) expect(run.stdout).toContain(`-a ${word} `);
    if (existsSync('/usr/bin/fish')) {
      // From a file: fish refuses a script on a socket stdin (node's 'pipe') with "Is a directory".
      const script = join(mkdtempSync(join(tmpdir(), 'paylink-fish-')), 'paylink.fish');
      writeFileSync(script, run.stdout);
      const check = await new Promise<{ code: number | null; err: string }>((resolve) => {
        let err = '';
        const fish = spawn('/usr/bin/fish', ['--no-execute', script], { stdio: ['ignore', 'ignore', 'pipe'] });
        fish.stderr.on('data', (c) => (err += c));
        fish.on('close', (code) => resolve({ code, err }));
      });
      expect(check, check.err).toEqual({ code: 0, err: '' });
    } else if (process.env.CI === 'true') {
      throw new Error('fish is missing: .ci/run installs it so the completion script is syntax-checked (apt-get install -y fish)');
    }
  });
});

describe('polish (10)', () => {
  it('prints amounts in the currency minor units, an unknown brand in words, and one full stop after the page message', async () => {
    const id = await createLink();
    const status = await paylink(['status', id]);
    expect(status.stdout).toMatch(/Amount:\s+12\.50 EUR/);
    expect(brandName(undefined)).toBe('unknown brand');
    const visaOnly = (
      await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'sandbox-business', link: { brandIds: [1010], returnUrl: 'http://127.0.0.1:9/r' } }))
    ).body.body.link.linkId as string;
    const run = await paylink(['pay', visaOnly, '--card', '5555555555554444']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('the page says:');
    expect(run.stderr).not.toMatch(/\.\.\s*$/m);
  });
});
