/**
 * paylink's local certificate authority (docs/drop-in.md, "The authority"): made once per user with a
 * private key, name-constrained to the provider's hosts and localhost; its leaves verify, and a leaf for
 * any other name is refused by OpenSSL and by Node's TLS client even though the authority signed it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, createServer, type Server } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorityFiles, loadAuthority, serverCertificate, type LocalAuthority } from '../../src/sandbox/drop-in/authority.js';
import { issueLeaf } from '../../src/sandbox/drop-in/x509.js';

let home: string;
let authority: LocalAuthority;
const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'paylink-ca-'));
  authority = loadAuthority(authorityFiles({ XDG_CONFIG_HOME: home }));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function tlsHandshake(leaf: { cert: string; key: string }, servername: string): Promise<string> {
  return new Promise((resolve) => {
    const server: Server = createServer({ cert: leaf.cert, key: leaf.key }, (socket) => socket.end());
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      const socket = connect({ host: '127.0.0.1', port, servername, ca: authority.cert }, () => {
        socket.end();
        server.close();
        resolve('ok');
      });
      socket.on('error', (error: NodeJS.ErrnoException) => {
        server.close();
        resolve(`${error.code ?? ''} ${error.message}`);
      });
    });
  });
}

describe('the local certificate authority', () => {
  it('is made once per user under XDG_CONFIG_HOME/paylink/ca, its key readable by the user only', () => {
    expect(authority.created).toBe(true);
    expect(authority.files.dir).toBe(join(home, 'paylink', 'ca'));
    expect(statSync(authority.files.key).mode & 0o777).toBe(0o600);
    expect(statSync(authority.files.dir).mode & 0o777).toBe(0o700);
    const again = loadAuthority(authorityFiles({ XDG_CONFIG_HOME: home }));
    expect(again.created).toBe(false);
    expect(again.cert).toBe(authority.cert);
  });

  it('signs a certificate for the provider hosts and localhost that Node verifies under each name', async () => {
    const leaf = serverCertificate(authority);
    expect(await tlsHandshake(leaf, 'stagconnect.acehubpaymentservices.com')).toBe('ok');
    expect(await tlsHandshake(leaf, 'cdn.payvision.com')).toBe('ok');
    expect(await tlsHandshake(leaf, 'localhost')).toBe('ok');
  });

  it('cannot vouch for another site: a leaf it signs for example.com fails verification (name constraints)', async () => {
    const rogue = issueLeaf(authority, ['example.com']);
    const outcome = await tlsHandshake(rogue, 'example.com');
    expect(outcome).not.toBe('ok');
    expect(outcome).toMatch(/subtree|name constraint|permitted/i);
  });

  it.runIf(hasOpenssl)('verifies with openssl for its names and refuses example.com with a subtree violation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'paylink-ca-openssl-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, authority.cert);
      const good = join(dir, 'good.pem');
      writeFileSync(good, serverCertificate(authority).cert.split('-----END CERTIFICATE-----')[0] + '-----END CERTIFICATE-----\n');
      expect(
        execFileSync('openssl', ['verify', '-CAfile', ca, '-verify_hostname', 'stagconnect.acehubpaymentservices.com', good], { encoding: 'utf8' }),
      ).toContain(': OK');
      const bad = join(dir, 'bad.pem');
      writeFileSync(bad, issueLeaf(authority, ['example.com']).cert);
      const run = spawnSync('openssl', ['verify', '-CAfile', ca, bad], { encoding: 'utf8' });
      expect(run.status).not.toBe(0);
      expect(run.stdout + run.stderr).toMatch(/permitted subtree violation/i);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps its private key out of the certificate file users are told to trust', () => {
    expect(readFileSync(authority.files.cert, 'utf8')).not.toContain('PRIVATE KEY');
  });
});
