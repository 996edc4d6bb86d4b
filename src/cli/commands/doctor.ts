/**
 * `paylink doctor`: checks the drop-in setup from the user's side (docs/drop-in.md) and says what to fix:
 * this folder's sandbox answers; its proxy answers as the provider over TLS from paylink's authority; curl,
 * PHP and Node in this shell trust that authority (and go through the proxy); a provider host that the
 * hosts file points at this machine reaches the sandbox (hosts mode). It never contacts the internet: the
 * tools are only run when this shell sends them through the sandbox's proxy, and the hosts file is read,
 * not DNS. Exit 0 when nothing failed, 3 otherwise (`--json`: the report).
 */
import type { Run } from '../command-spec.js';
import type { doctor as spec } from './env.spec.js';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as tlsConnect } from 'node:tls';
import { PROVIDER_HOSTS, PROVIDER_STAGING_API } from '../../sandbox/domain/provider-hosts.js';
import { pathOfId } from '../../sandbox/domain/routes.js';
import { answers, discoverSandbox, sandboxOf, type FoundEntry } from '../discovery.js';
import { ApiResponseError } from '../errors.js';
import type { Ui } from '../ui.js';

export type CheckState = 'ok' | 'fail' | 'skip';

export interface DoctorCheck {
  id: 'sandbox' | 'proxy' | 'curl' | 'php' | 'node' | 'hosts';
  state: CheckState;
  detail: string;
  /** What to do, for a failure (and for a skip that can be turned into a check). */
  fix?: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: DoctorCheck[];
}

export interface DoctorOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** The hosts file read for hosts mode. @default "/etc/hosts" */
  hostsFile?: string;
}

const PROBE_PATH = `${pathOfId('links.get', 'paylink-doctor')}?businessId=paylink-doctor`;
const EVAL = 'run `eval "$(paylink env)"` in this shell (docs/drop-in.md)';

/** Opens a tunnel through the proxy to the staging host and completes TLS trusting `ca`; resolves with what failed, if anything. */
function proxyHandshake(proxyUrl: string, ca: string): Promise<string | undefined> {
  const proxy = new URL(proxyUrl);
  const host = new URL(PROVIDER_STAGING_API).hostname;
  return new Promise((resolve) => {
    const req = httpRequest({ host: proxy.hostname, port: proxy.port, method: 'CONNECT', path: `${host}:443`, timeout: 3000 });
    req.on('connect', (res, socket) => {
      if (res.statusCode !== 200) {
        socket.destroy();
        resolve(`the proxy answered ${res.statusCode} to CONNECT ${host}:443`);
        return;
      }
      const tls = tlsConnect({ socket, servername: host, ca }, () => {
        tls.end();
        resolve(undefined);
      });
      tls.on('error', (error) => resolve(`TLS with ${host} failed: ${error.message}`));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 3 s')));
    req.on('error', (error) => resolve(`${proxyUrl} does not answer (${error.message})`));
    req.end();
  });
}

function usesProxy(env: NodeJS.ProcessEnv, entry: FoundEntry | undefined): boolean {
  const proxy = env.https_proxy ?? env.HTTPS_PROXY;
  return entry?.proxy !== undefined && proxy !== undefined && proxy.replace(/\/+$/, '') === entry.proxy;
}

function toolCheck(id: 'curl' | 'php', env: NodeJS.ProcessEnv, entry: FoundEntry | undefined): DoctorCheck {
  if (entry?.proxy === undefined) return { id, state: 'skip', detail: 'no proxy to check against', fix: 'start the sandbox with --proxy' };
  if (!usesProxy(env, entry))
    return {
      id,
      state: 'fail',
      detail: `this shell does not send ${id} through ${entry.proxy} (https_proxy is ${env.https_proxy ?? env.HTTPS_PROXY ?? 'unset'})`,
      fix: EVAL,
    };
  const url = PROVIDER_STAGING_API + PROBE_PATH;
  const run =
    id === 'curl'
      ? spawnSync('curl', ['-sS', '-o', '/dev/null', '--max-time', '5', url], { env, encoding: 'utf8' })
      : spawnSync(
          'php',
          [
            '-r',
            `$c = curl_init(${JSON.stringify(url)}); curl_setopt($c, CURLOPT_RETURNTRANSFER, true); curl_setopt($c, CURLOPT_TIMEOUT, 5); if (curl_exec($c) === false) { fwrite(STDERR, curl_error($c)); exit(1); }`,
          ],
          { env, encoding: 'utf8' },
        );
  if (run.error !== undefined) return { id, state: 'skip', detail: `${id} is not installed here` };
  if (run.status === 0) return { id, state: 'ok', detail: `${id} reaches ${PROVIDER_STAGING_API} through the proxy and trusts paylink's authority` };
  const text = (run.stderr || run.stdout).trim().split('\n').at(-1) ?? '';
  const trust = /certificate|SSL|issuer/i.test(text);
  return {
    id,
    state: 'fail',
    detail: `${id} failed: ${text}`,
    fix: trust ? `${id === 'php' ? 'PHP reads its CA from ini files: ' : ''}${EVAL}` : `check that ${entry.proxy} answers (paylink doctor's proxy check)`,
  };
}

function nodeCheck(env: NodeJS.ProcessEnv, entry: FoundEntry | undefined, authorityPem: string | undefined): DoctorCheck {
  if (authorityPem === undefined) return { id: 'node', state: 'skip', detail: 'no authority to check against', fix: 'start the sandbox with --proxy' };
  const file = env.NODE_EXTRA_CA_CERTS;
  if (file === undefined || file === '')
    return { id: 'node', state: 'fail', detail: "NODE_EXTRA_CA_CERTS is not set: Node does not trust paylink's authority", fix: EVAL };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return { id: 'node', state: 'fail', detail: `NODE_EXTRA_CA_CERTS names ${file}, which cannot be read`, fix: EVAL };
  }
  if (!text.includes(authorityPem.trim()))
    return { id: 'node', state: 'fail', detail: `${file} (NODE_EXTRA_CA_CERTS) does not hold paylink's authority ${entry?.authority ?? ''}`, fix: EVAL };
  return { id: 'node', state: 'ok', detail: `NODE_EXTRA_CA_CERTS holds paylink's authority (Node before 24 also needs a proxy agent, docs/drop-in.md)` };
}

/** Provider hosts the hosts file maps, with the address. */
function hostsEntries(path: string): Map<string, string> {
  const mapped = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return mapped;
  }
  for (const line of text.split('\n')) {
    const [address, ...names] = line.replace(/#.*/, '').trim().split(/\s+/);
    if (address === undefined || address === '') continue;
    for (const name of names)
      if (PROVIDER_HOSTS.some((h) => h.name === name.toLowerCase()) && !mapped.has(name.toLowerCase())) mapped.set(name.toLowerCase(), address);
  }
  return mapped;
}

function hostsAnswer(address: string, port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: address, port, path: PROBE_PATH, headers: { host }, timeout: 3000 }, (res) => {
      res.resume();
      resolve(res.headers['content-type']?.includes('json') === true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

async function hostsCheck(entry: FoundEntry | undefined, hostsFile: string): Promise<DoctorCheck> {
  const mapped = hostsEntries(hostsFile);
  if (mapped.size === 0)
    return { id: 'hosts', state: 'skip', detail: `${hostsFile} maps no provider host (hosts mode is not in use; the proxy does not need it)` };
  if (entry === undefined)
    return { id: 'hosts', state: 'fail', detail: 'provider hosts are mapped but no sandbox runs here', fix: 'start `paylink sandbox` in this folder' };
  const listen = new URL(entry.listen);
  const wrong: string[] = [];
  for (const [name, address] of mapped) {
    if (!/^(127\.|::1$)/.test(address)) {
      wrong.push(`${name} -> ${address} (not this machine)`);
      continue;
    }
    if (listen.protocol === 'http:' && !(await hostsAnswer(address, Number(listen.port), `${name}:${listen.port}`)))
      wrong.push(`${name} -> ${address} does not reach the sandbox on port ${listen.port}`);
  }
  if (wrong.length > 0)
    return { id: 'hosts', state: 'fail', detail: wrong.join('; '), fix: `point those names at 127.0.0.1 in ${hostsFile}, or remove them and use the proxy` };
  return { id: 'hosts', state: 'ok', detail: `${[...mapped.keys()].join(', ')} reach the sandbox (hosts mode)` };
}

/** Runs every check; never throws for a failed check. */
export async function runDoctor(options: DoctorOptions = {}): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const checks: DoctorCheck[] = [];
  let entry: FoundEntry | undefined;
  try {
    entry = sandboxOf(await discoverSandbox(cwd), cwd);
  } catch (error) {
    checks.push({ id: 'sandbox', state: 'fail', detail: (error as Error).message, fix: 'start `paylink sandbox --proxy 8418` in this folder' });
  }
  if (checks.length === 0) {
    if (entry === undefined)
      checks.push({
        id: 'sandbox',
        state: 'fail',
        detail: 'no sandbox was started from this folder',
        fix: 'start `paylink sandbox --proxy 8418` in this folder',
      });
    else if (await answers(entry.listen)) checks.push({ id: 'sandbox', state: 'ok', detail: `${entry.listen} answers` });
    else checks.push({ id: 'sandbox', state: 'fail', detail: `${entry.listen} does not answer`, fix: 'restart `paylink sandbox --proxy 8418`' });
  }
  let authorityPem: string | undefined;
  if (entry?.authority !== undefined) {
    try {
      authorityPem = readFileSync(entry.authority, 'utf8');
    } catch {
      authorityPem = undefined;
    }
  }
  if (entry?.proxy === undefined || authorityPem === undefined) {
    checks.push({ id: 'proxy', state: 'fail', detail: 'the sandbox has no proxy', fix: 'restart it with `paylink sandbox --proxy 8418`' });
  } else {
    const failure = await proxyHandshake(entry.proxy, authorityPem);
    checks.push(
      failure === undefined
        ? {
            id: 'proxy',
            state: 'ok',
            detail: `${entry.proxy} answers as ${new URL(PROVIDER_STAGING_API).hostname} with a certificate from paylink's authority`,
          }
        : { id: 'proxy', state: 'fail', detail: failure, fix: 'restart the sandbox with --proxy' },
    );
  }
  checks.push(
    toolCheck('curl', env, entry),
    toolCheck('php', env, entry),
    nodeCheck(env, entry, authorityPem),
    await hostsCheck(entry, options.hostsFile ?? '/etc/hosts'),
  );
  return { ok: checks.every((c) => c.state !== 'fail'), checks };
}

/** The command: prints each check and what to fix; exit 3 when one failed. */
export async function doctor(ui: Ui, options: DoctorOptions = {}): Promise<DoctorReport> {
  const report = await runDoctor(options);
  if (!ui.options.json) {
    for (const check of report.checks) {
      const mark = check.state === 'ok' ? ui.color.green('ok  ') : check.state === 'fail' ? ui.color.red('FAIL') : ui.color.dim('skip');
      ui.line(`${mark} ${check.id.padEnd(8)} ${check.detail}`);
      if (check.fix !== undefined && check.state === 'fail') ui.line(`     ${' '.repeat(8)} fix: ${check.fix}`);
    }
  } else if (report.ok) ui.json(report);
  const failed = report.checks.filter((c) => c.state === 'fail');
  if (failed.length > 0)
    throw new ApiResponseError(
      `${failed.length} check${failed.length > 1 ? 's' : ''} failed: ${failed.map((c) => c.id).join(', ')}`,
      undefined,
      undefined,
      report,
    );
  return report;
}

export const doctorCommand: Run<typeof spec> = (_args, _flags, ctx) => doctor(ctx.ui, { env: ctx.env });
