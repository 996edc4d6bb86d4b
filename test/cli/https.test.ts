/**
 * The CLI talks to a `--https` sandbox (issue 23, item 4): commands run from the folder it was started in
 * trust the self-signed certificate its discovery entry names; elsewhere `--ca`, `PAYLINK_CA` or
 * NODE_EXTRA_CA_CERTS; without any, a TLS trust error that says so, never "Is the sandbox running?".
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { connect as tlsConnect } from 'node:tls';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, until, type CliRun } from '../helpers/cli.js';
import { BIN } from '../helpers/tty.js';

let dir: string;
let elsewhere: string;
let child: ChildProcess;
let url: string;
let pem: string;

function paylink(args: string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return runCli(args, { cwd, env });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'paylink-https-'));
  elsewhere = mkdtempSync(join(tmpdir(), 'paylink-https-other-'));
  // paylink's local authority (docs/drop-in.md) is made under this test's own config folder.
  child = spawn(process.execPath, [BIN, 'sandbox', '--https', '--port', '0', '--db', ':memory:'], {
    cwd: dir,
    env: { PATH: process.env.PATH, NO_COLOR: '1', XDG_CONFIG_HOME: join(dir, 'config') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await until(() => /Certificate:\s+(\S+\.pem)/.test(out) || child.exitCode !== null, 20_000);
  if (!/Certificate:\s+(\S+\.pem)/.test(out)) throw new Error(`paylink sandbox --https did not start: ${out}`);
  url = /PAYLINK_BASE_URL=(\S+)/.exec(out)![1]!;
  pem = /Certificate:\s+(\S+\.pem)/.exec(out)![1]!;
});
afterAll(() => {
  child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
  rmSync(elsewhere, { recursive: true, force: true });
});

const createLink = ['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'];

describe('an https sandbox', () => {
  it("serves a certificate for the loopback names from paylink's local authority, which its discovery entry names", async () => {
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const entries = join(dir, '.paylink', 'sandboxes');
    const entry = JSON.parse(readFileSync(join(entries, readdirSync(entries).find((f) => f.endsWith('.json'))!), 'utf8'));
    expect(entry).toMatchObject({ url, ca: pem });
    const authority = new X509Certificate(readFileSync(pem));
    expect(authority.ca).toBe(true);
    expect(authority.verify(authority.publicKey)).toBe(true);
    const served = await new Promise<X509Certificate>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port: Number(new URL(url).port), ca: readFileSync(pem), servername: 'localhost' }, () => {
        resolve(socket.getPeerX509Certificate()!);
        socket.end();
      });
      socket.on('error', reject);
    });
    expect(served.ca).toBe(false);
    expect(served.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(served.subjectAltName).toContain('DNS:localhost');
    expect(served.checkIssued(authority)).toBe(true);
  });

  it('is reached by commands run from its folder, with no flag', async () => {
    const run = await paylink(createLink, dir);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).body.link.redirect.url.startsWith(url)).toBe(true);
    const pay = await paylink(['pay', JSON.parse(run.stdout).body.link.linkId, '--no-follow', '--json'], dir);
    expect(pay.code, pay.stderr).toBe(0);
  });

  it('says elsewhere that the certificate is not trusted and how to trust it, not that the sandbox is down', async () => {
    const run = await paylink([...createLink, '--base-url', url], elsewhere);
    expect(run.code).toBe(4);
    expect(run.stderr).toContain('answered, but its TLS certificate is not trusted');
    expect(run.stderr).toContain('--ca <file>');
    expect(run.stderr).not.toContain('Is the sandbox running');
  });

  it('is trusted elsewhere with --ca, PAYLINK_CA or NODE_EXTRA_CA_CERTS', async () => {
    for (const [args, env] of [
      [['--ca', pem], {}],
      [[], { PAYLINK_CA: pem }],
      [[], { NODE_EXTRA_CA_CERTS: pem }],
    ] as const) {
      const run = await paylink([...createLink, '--base-url', url, ...args], elsewhere, env);
      expect(run.code, `${args.join(' ')} ${JSON.stringify(env)}: ${run.stderr}`).toBe(0);
    }
  });

  it('calls an unreadable --ca a usage error', async () => {
    const run = await paylink([...createLink, '--base-url', url, '--ca', join(elsewhere, 'missing.pem')], elsewhere);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--ca: cannot read');
  });
});
