/**
 * The image (Dockerfile, docs/drop-in.md "Compose"), built and run with Debian's podman offline: a base
 * image made from a minimal root holding this machine's node and its libraries, the image built from the
 * checkout's dist/ and production node_modules (`--format docker` for HEALTHCHECK), runc as the runtime and
 * nofile/nproc set explicitly in containers.conf (this machine refuses podman's defaults). A link created
 * in the container survives a restart on a named volume, and the health check (no curl, no admin token)
 * passes. Runs where podman is (.ci/run installs it); says so loudly and skips elsewhere; fails under CI.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/cli.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const ci = process.env.CI === 'true' || process.env.CI === '1';
const hasPodman = spawnSync('podman', ['--version']).status === 0;
if (!hasPodman && ci) throw new Error('podman is required under CI (.ci/run installs podman)');
if (!hasPodman)
  console.warn(
    `\n${'!'.repeat(78)}\n  podman not found: the image test (Dockerfile) is SKIPPED. Install it with: sudo apt-get install -y podman runc\n${'!'.repeat(78)}\n`,
  );

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.runIf(hasPodman)('the Dockerfile, built and run with podman', () => {
  let work: string;
  let port: number;
  const tag = `localhost/paylink-image-test-${process.pid}`;
  const base = `localhost/paylink-image-base-${process.pid}`;
  const volume = `paylink-image-data-${process.pid}`;
  const container = `paylink-image-${process.pid}`;
  let env: NodeJS.ProcessEnv;

  function podman(args: string[], timeout = 300_000): SpawnSyncReturns<string> {
    return spawnSync('podman', ['--root', join(work, 'storage'), '--runroot', join(work, 'run'), '--storage-driver', 'vfs', ...args], {
      env,
      encoding: 'utf8',
      timeout,
    });
  }
  function ok(args: string[], timeout?: number): string {
    const run = podman(args, timeout);
    if (run.status !== 0) throw new Error(`podman ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
    return run.stdout;
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'paylink-image-'));
    port = await freePort();
    const hard = (flag: string) => Number(spawnSync('sh', ['-c', `ulimit -H${flag}`], { encoding: 'utf8' }).stdout.trim()) || 4096;
    const nofile = Math.min(hard('n'), 65536);
    const nproc = Math.min(hard('u'), 4096);
    writeFileSync(
      join(work, 'containers.conf'),
      `[containers]\ndefault_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]\n[engine]\nruntime = "runc"\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n`,
    );
    env = { ...process.env, CONTAINERS_CONF: join(work, 'containers.conf') };

    // The base: this machine's node and the libraries it links, nothing else (no shell).
    const root = join(work, 'base');
    const node = realpathSync(process.execPath);
    const libs = spawnSync('ldd', [node], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((l) => /(\/\S+) \(0x/.exec(l)?.[1])
      .filter((p): p is string => p !== undefined);
    for (const file of [node, ...libs]) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      cpSync(realpathSync(file), join(root, file));
    }
    mkdirSync(join(root, 'usr/bin'), { recursive: true });
    if (!existsSync(join(root, 'usr/bin/node'))) cpSync(node, join(root, 'usr/bin/node'));
    mkdirSync(join(root, 'etc'), { recursive: true });
    writeFileSync(join(root, 'etc/passwd'), 'root:x:0:0:root:/root:/usr/bin/node\npaylink:x:10001:10001:paylink:/data:/usr/bin/node\n');
    writeFileSync(join(root, 'etc/group'), 'root:x:0:\npaylink:x:10001:\n');
    mkdirSync(join(root, 'tmp'));
    chmodSync(join(root, 'tmp'), 0o1777);
    const tar = spawnSync('tar', ['-C', root, '-cf', join(work, 'base.tar'), '.']);
    if (tar.status !== 0) throw new Error('tar of the base failed');
    ok(['import', join(work, 'base.tar'), base]);

    // The build context: the checkout's build and its production dependencies (package-lock's non-dev packages).
    const context = join(work, 'context');
    mkdirSync(context);
    for (const item of ['Dockerfile', 'package.json', 'bin', 'dist']) cpSync(join(ROOT, item), join(context, item), { recursive: true });
    const modules = realpathSync(join(ROOT, 'node_modules'));
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    for (const [path, meta] of Object.entries(lock.packages)) {
      if (path === '' || meta.dev === true || path.split('node_modules/').length !== 2) continue;
      const from = join(modules, path.slice('node_modules/'.length));
      if (existsSync(from)) cpSync(from, join(context, path), { recursive: true, dereference: true });
    }
    ok(['build', '--format', 'docker', '--network', 'none', '--build-arg', `BASE=${base}`, '-t', tag, context], 600_000);
    ok(['volume', 'create', volume]);
  }, 900_000);

  afterAll(() => {
    if (work === undefined) return;
    podman(['rm', '-f', container]);
    podman(['volume', 'rm', '-f', volume]);
    podman(['rmi', '-f', tag, base]);
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  const health = (): boolean => podman(['healthcheck', 'run', container], 30_000).status === 0;
  const answers = async (): Promise<boolean> => {
    try {
      return (
        (
          await fetch(`http://127.0.0.1:${port}/checkout/${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}/checkout-library.js`, {
            method: 'HEAD',
          })
        ).status === 200
      );
    } catch {
      return false;
    }
  };

  it('runs as a non-root user with /data as a volume and a health check', () => {
    const inspect = JSON.parse(ok(['image', 'inspect', tag]))[0];
    expect(inspect.Config.User).toBe('10001:10001');
    expect(Object.keys(inspect.Config.Volumes ?? {})).toContain('/data');
    expect(inspect.Healthcheck?.Test ?? inspect.Config.Healthcheck?.Test).toEqual(['CMD', 'node', '/app/bin/healthcheck.js']);
  });

  it('keeps a payment link across a container restart on a named volume, healthy each time', async () => {
    ok([
      'run',
      '-d',
      '--name',
      container,
      '--network',
      'host',
      '-v',
      `${volume}:/data`,
      '-e',
      `PAYLINK_HEALTH_URL=http://127.0.0.1:${port}`,
      tag,
      'sandbox',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--db',
      '/data/sandbox.db',
    ]);
    await until(answers, 60_000, 'the sandbox in the container');
    await until(health, 30_000, 'the health check');
    const created = await fetch(`http://127.0.0.1:${port}/gateway/v3/paymentlinks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        header: { businessId: 'image-biz' },
        body: {
          transaction: { amount: 3, currencyCode: 'EUR', authorizationMode: 'payment', trackingCode: 'image-test-1' },
          link: { duration: 'P1D', brandIds: [1010], returnUrl: 'https://shop.example/r' },
        },
      }),
    });
    const linkId = ((await created.json()) as any).body.link.linkId as string;
    ok(['restart', container], 120_000);
    await until(answers, 60_000, 'the restarted sandbox');
    await until(health, 30_000, 'the health check after the restart');
    const read = await fetch(`http://127.0.0.1:${port}/gateway/v3/paymentlinks/${linkId}?businessId=image-biz`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as any).body.link.linkId).toBe(linkId);
  }, 300_000);
});
