// V8 code caches of the bundled CLI's chunks (docs/architecture.md, "The build"). Compiling a chunk reads all
// of its text (the sandbox's chunk is about 440 KB: about 9 ms); from a code cache V8 takes the compiled
// top level and the outline of every function instead (about 2.5 ms with reading the cache). The build
// writes one cache beside each chunk (scripts/build.mjs), compiled as Node compiles a CommonJS file; the CLI
// (bin/paylink.js) compiles the chunks with them.
//
// V8 refuses a cache made by another V8 version or with other V8 flags (the chunk is then compiled from its
// text, as without a cache), but checks only the length of the text it was made from: a cache is used only
// if it is not older than its chunk, so a chunk changed after the build is compiled from its text.
'use strict';
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname } = require('node:path');
const vm = require('node:vm');

/** The text compiled for a chunk: Node's CommonJS wrapper around it, the same at the build and at run time. */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
}

/** The code cache of the chunk `file`. */
function cacheOf(file) {
  return `${file}.v8cache`;
}

/** At the build: writes the code cache of the chunk `file`. */
function writeCodeCache(file) {
  const script = new vm.Script(wrap(readFileSync(file, 'utf8')), { filename: file });
  writeFileSync(cacheOf(file), script.createCachedData());
}

/** The code cache of the chunk `file` if there is one and it is not older than the chunk. */
function readCodeCache(file) {
  try {
    if (statSync(cacheOf(file)).mtimeMs < statSync(file).mtimeMs) return undefined;
    return readFileSync(cacheOf(file));
  } catch {
    return undefined;
  }
}

/** At run time: the chunks in the folder `dir` (ending with a separator) are compiled with their code caches. */
function useCodeCaches(dir) {
  const compile = Module.prototype._compile;
  Module.prototype._compile = function compileChunk(content, filename, ...rest) {
    const cachedData = filename.startsWith(dir) ? readCodeCache(filename) : undefined;
    // Everything else compiles as Node would, with whatever arguments this Node version passes.
    if (cachedData === undefined) return compile.call(this, content, filename, ...rest);
    const chunk = new vm.Script(wrap(content), { filename, cachedData }).runInThisContext();
    const require = Object.assign((id) => this.require(id), { resolve: Module.createRequire(filename).resolve, cache: Module._cache });
    return chunk.call(this.exports, this.exports, require, this, filename, dirname(filename));
  };
}

module.exports = { useCodeCaches, writeCodeCache, readCodeCache, wrap };
