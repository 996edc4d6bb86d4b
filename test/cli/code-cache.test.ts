/**
 * bin/paylink.js compiles the bundled CLI's chunks with the V8 code caches the build writes beside them
 * (bin/code-cache.js): each chunk has one that this Node accepts, and a chunk changed after its cache was
 * written is compiled from its text.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { Script } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';

interface CodeCache {
  useCodeCaches(dir: string): void;
  writeCodeCache(file: string): void;
  readCodeCache(file: string): Buffer | undefined;
  wrap(source: string): string;
}
const require = createRequire(import.meta.url);
const codeCache = require('../../bin/code-cache.js') as CodeCache;
const BUNDLE = new URL('../../dist/bundle/', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'paylink-code-cache-'));
// useCodeCaches replaces Module.prototype._compile for the process: the worker gets Node's back afterwards.
const nodeCompile = (Module.prototype as unknown as { _compile: unknown })._compile;
afterAll(() => {
  (Module.prototype as unknown as { _compile: unknown })._compile = nodeCompile;
  rmSync(dir, { recursive: true, force: true });
});

describe('the code caches of the bundled CLI', () => {
  it("are written beside every chunk without an import() (all of `paylink sandbox`'s), and V8 takes each of them", () => {
    const modules = JSON.parse(readFileSync(new URL('modules.json', BUNDLE), 'utf8')) as Record<string, string[]>;
    const chunks = Object.keys(modules);
    const text = (name: string) => readFileSync(new URL(name, BUNDLE), 'utf8');
    const uncached = chunks.filter((name) => /\bimport\(/.test(text(name)));
    expect(uncached.flatMap((name) => modules[name]!)).toEqual(['dist/cli/commands/open.js']);
    for (const name of chunks.filter((chunk) => !uncached.includes(chunk))) {
      const file = new URL(name, BUNDLE).pathname;
      const cachedData = codeCache.readCodeCache(file);
      expect(cachedData, name).toBeDefined();
      const script = new Script(codeCache.wrap(readFileSync(file, 'utf8')), { filename: file, cachedData });
      expect(script.cachedDataRejected, name).toBe(false);
    }
  });

  it('compile a chunk as Node does, and a chunk changed after its cache from its text', () => {
    const chunk = join(dir, 'chunk.cjs');
    writeFileSync(chunk, '"use strict";\nexports.answer = () => "cached";\nexports.file = __filename;\n');
    codeCache.writeCodeCache(chunk);
    codeCache.useCodeCaches(`${dir}${sep}`);
    expect(require(chunk)).toEqual({ answer: expect.any(Function), file: chunk });
    expect((require(chunk) as { answer: () => string }).answer()).toBe('cached');
    delete require.cache[chunk];
    // The same length, so V8 itself would take the old cache: the chunk being newer is what refuses it.
    writeFileSync(chunk, '"use strict";\nexports.answer = () => "edited";\nexports.file = __filename;\n');
    const later = new Date(Date.now() + 60_000);
    utimesSync(chunk, later, later);
    expect(codeCache.readCodeCache(chunk)).toBeUndefined();
    expect((require(chunk) as { answer: () => string }).answer()).toBe('edited');
  });
});
