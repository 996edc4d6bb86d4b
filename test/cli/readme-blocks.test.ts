/**
 * The README's shell examples run as written (issue 23, item 11): every ```sh / ```bash block of README.md
 * runs in bash (`set -e`) in a temporary folder, with `paylink` (and `npx paylink`) being this build, against
 * a real sandbox on port 0: the only change to a block is the sandbox's port (8417 in the README). A block
 * that cannot run here says so with a marker on the line before it:
 * `<!-- readme-test: skip (why) -->` (a long-running server, a browser, placeholders such as <linkId>).
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN } from '../helpers/tty.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface Block {
  line: number;
  code: string;
  skip?: string | undefined;
}

/** The sh/bash blocks of a Markdown text, with the skip marker of the line before each. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && /^```\s*$/.test(l));
    if (end < 0) break;
    if (fence[1] === 'sh' || fence[1] === 'bash') {
      const marker = /<!--\s*readme-test:\s*skip\s*(.*?)\s*-->/.exec(lines[i - 1] ?? '');
      blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: marker ? marker[1] || 'marked' : undefined });
    }
    i = end;
  }
  return blocks;
}

const sb = useSandbox();
const dir = mkdtempSync(join(tmpdir(), 'paylink-readme-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bin folder where `paylink` and `npx paylink` are this build (no registry is ever asked). */
function shims(): string {
  const bin = join(dir, '.bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, 'paylink'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = paylink ]; then shift; exec "${process.execPath}" "${BIN}" "$@"; fi\necho "npx $1: not available in this test" >&2; exit 127\n`,
  );
  writeFileSync(join(bin, 'node'), `#!/bin/sh\nexec "${process.execPath}" "$@"\n`);
  for (const name of ['paylink', 'npx', 'node']) chmodSync(join(bin, name), 0o755);
  return bin;
}

function runBlock(code: string, port: string): Promise<{ code: number; out: string }> {
  const script = `set -e\n${code.replace(/(localhost|127\.0\.0\.1):8417/g, `127.0.0.1:${port}`)}\n`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { cwd: dir, env: { PATH: `${shims()}:${process.env.PATH}`, HOME: dir, CI: '1', NO_COLOR: '1', PAYLINK_BASE_URL: sb.url }, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, out: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe("README.md's shell blocks", () => {
  const blocks = shellBlocks(README);
  it('has shell blocks, and each one not meant to run says why', () => {
    expect(blocks.length).toBeGreaterThan(5);
    for (const block of blocks) if (block.skip !== undefined) expect(block.skip, `README.md:${block.line}`).not.toBe('marked');
  });

  for (const block of blocks) {
    it.skipIf(block.skip !== undefined)(`runs the block at README.md:${block.line}${block.skip ? ` (skipped: ${block.skip})` : ''}`, async () => {
      symlinkSafe(join(ROOT, 'fixtures'), join(dir, 'fixtures'));
      const port = new URL(sb.url).port;
      const run = await runBlock(block.code, port);
      expect(run.code, `README.md:${block.line}\n${block.code}\n---\n${run.out}`).toBe(0);
    });
  }
});

function symlinkSafe(target: string, path: string): void {
  try {
    symlinkSync(target, path);
  } catch {
    // there already
  }
}

describe('docs that match the tool', () => {
  function paylink(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [BIN, ...args, '--base-url', sb.url],
        { cwd: dir, env: { PATH: process.env.PATH, CI: '1', NO_COLOR: '1' }, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        },
      );
    });
  }

  it('prints one JSON document {shell, script} for `completion bash --json`', async () => {
    const run = await paylink(['completion', 'bash', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(doc.shell).toBe('bash');
    expect(doc.script).toContain('complete -F');
  });

  it('prints the error document for `pay --json` on a paid link, as docs/cli.md says', async () => {
    const created = JSON.parse(
      (await paylink(['link', 'create', '--amount', '5', '--currency', 'EUR', '--return-url', 'http://127.0.0.1:9/r', '--json'])).stdout,
    );
    const id = created.body.link.linkId as string;
    expect((await paylink(['pay', id, '--no-follow', '--json'])).code).toBe(0);
    const again = await paylink(['pay', id, '--no-follow', '--json']);
    expect(again.code).toBe(3);
    expect(JSON.parse(again.stdout)).toEqual({ error: { message: expect.stringContaining('offers no payment form'), exitCode: 3 } });
    const cli = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8');
    expect(cli).toContain('when it could not play (a paid, cancelled or expired link');
  });

  it('does not say endpoints can be added on the dashboard, whose Webhooks page is read-only', () => {
    const webhooks = readFileSync(join(ROOT, 'docs/webhooks.md'), 'utf8');
    expect(webhooks).not.toMatch(/or the dashboard's Webhooks page\. /);
    expect(webhooks).toContain("the dashboard's Webhooks page lists them and their deliveries; it adds\n  none");
  });
});
