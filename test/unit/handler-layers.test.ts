import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORAGE_MEMBERS } from '../../src/sandbox/services/deps.js';

const SANDBOX = new URL('../../src/sandbox/', import.meta.url).pathname;
const HANDLER_FOLDERS = ['api', 'web', 'admin'];

/** Sandbox members that reach storage: the Deps list, every member typed by a store/ import, the meta writers. */
function storageMembers(): string[] {
  const context = readFileSync(join(SANDBOX, 'context.ts'), 'utf8');
  const storeTypes = new Set<string>();
  for (const m of context.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'\.\/store\/[^']+'/g)) {
    for (const name of m[1]!.split(',')) storeTypes.add(name.replace(/\btype\b/, '').trim().split(/\s+as\s+/).pop()!);
  }
  const typed = [...context.matchAll(/readonly\s+(\w+)\s*:\s*(\w+)/g)].filter((m) => storeTypes.has(m[2]!)).map((m) => m[1]!);
  return [...new Set([...STORAGE_MEMBERS, ...typed, 'readMeta', 'writeMetaSync', 'forgetCaches', 'afterRestore', 'exactMeta'])];
}

/** The source without comments, so a comment naming a repository is no finding. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

/** Every place a handler's source reaches storage: a Sandbox member, a destructured one, a write of the queue. */
function storageAccess(source: string, members: readonly string[]): string[] {
  const names = members.join('|');
  const patterns = [
    // sandbox.payments, req.sandbox.store, this.sandbox.readMeta(...)
    new RegExp(`\\bsandbox\\s*\\??\\.\\s*(${names})\\b`, 'g'),
    // const { payments, store } = req.sandbox
    new RegExp(`\\{[^{}]*\\b(${names})\\b[^{}]*\\}\\s*(?::[^=]+)?=\\s*(?:\\w+\\.)*sandbox\\b(?!\\s*\\??\\.)`, 'g'),
    // anything.payments.get(...) other than the services' own groups (services.payments.get)
    new RegExp(`(?<!services)\\.(${names})\\s*\\.\\s*\\w+\\s*\\(`, 'g'),
    // a write of the group-commit queue, whatever holds it
    /\.(write|writeStatement|writeDeferred|savepoint)\s*\(\s*(?:async\s*)?\(/g,
  ];
  const text = code(source);
  return patterns.flatMap((p) => [...text.matchAll(p)].map((m) => m[0].replace(/\s+/g, ' ')));
}

function handlerFiles(): Array<{ file: string; text: string }> {
  return HANDLER_FOLDERS.flatMap((folder) =>
    readdirSync(join(SANDBOX, folder), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => ({ file: `${folder}/${f}`, text: readFileSync(join(SANDBOX, folder, f), 'utf8') })),
  );
}

describe('handlers reach storage only through services', () => {
  const members = storageMembers();

  it('knows the storage members of the Sandbox, repositories added later included', () => {
    expect(members).toEqual(expect.arrayContaining(['store', 'links', 'checkouts', 'payments', 'tokens', 'eventStore', 'requestLog', 'browse', 'reset']));
  });

  it('finds a write, a repository read and a destructured repository when they are there', () => {
    const bad = [
      'const record = await sandbox.store.write(() => chargeCard(sandbox, input));',
      'const link = req.sandbox.links.getOwned(id, businessId);',
      'const { payments } = req.sandbox;',
      'const s = req.sandbox; s.payments.get(id);',
      'await this.sandbox.store.writeDeferred(() => {});',
    ];
    for (const line of bad) expect(storageAccess(line, members), line).not.toEqual([]);
    const good = [
      'const link = await req.sandbox.services.links.create(input);',
      'body.payments = paymentEntries(sandbox.services, link.paymentIds);',
      '// sandbox.store.write(...) is the service\'s job',
      'return linkStatusReply(req.sandbox, req.sandbox.services.links.get(businessId, id));',
      'const { location, snapshots } = sandbox.services.snapshots.list();',
    ];
    for (const line of good) expect(storageAccess(line, members), line).toEqual([]);
  });

  it('no file of api/, web/ or admin/ opens a write or touches a repository', () => {
    const files = handlerFiles();
    expect(files.length).toBeGreaterThan(15);
    const findings = files.flatMap(({ file, text }) => storageAccess(text, members).map((hit) => `${file}: ${hit}`));
    expect(findings).toEqual([]);
  });
});
