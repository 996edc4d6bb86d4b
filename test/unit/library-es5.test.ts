/**
 * The served library scripts must run in Internet Explorer 11: ES5 syntax (acorn at ecmaVersion 5 proves
 * it) and no ES2015+ global or method without a guard (a walk over the syntax tree finds them).
 */
import { parse, type Node } from 'acorn';
import { describe, expect, it } from 'vitest';
import { LIBRARY_VERSION, libraryIntegrity, libraryPath, servedLibrary, type LibraryKind } from '../../src/sandbox/web/library.js';
import { createHash } from 'node:crypto';

const BASE = 'http://127.0.0.1:8417';
const KINDS: LibraryKind[] = ['paymentlink', 'checkout'];

/** Identifiers IE11 does not have (or has only partly) that must not appear at all. */
const FORBIDDEN_GLOBALS = [
  'Promise',
  'fetch',
  'Symbol',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'Proxy',
  'Reflect',
  'URL',
  'URLSearchParams',
  'TextEncoder',
  'AbortController',
  'requestIdleCallback',
];
/** `Object.x`, `Array.x`, ... that IE11 lacks. */
const FORBIDDEN_STATICS = [
  'Object.assign',
  'Object.entries',
  'Object.values',
  'Object.fromEntries',
  'Array.from',
  'Array.of',
  'Number.isNaN',
  'Number.isInteger',
  'String.raw',
];
/** Methods IE11 lacks on strings and arrays (any `.name(` call is refused; the core uses none of them). */
const FORBIDDEN_METHODS = [
  'includes',
  'startsWith',
  'endsWith',
  'find',
  'findIndex',
  'fill',
  'repeat',
  'padStart',
  'padEnd',
  'flat',
  'flatMap',
  'closest',
  'append',
  'prepend',
  'remove',
  'replaceWith',
];

interface Found {
  globals: string[];
  statics: string[];
  methods: string[];
  /** `new X(...)` callee names. */
  constructed: string[];
}

function walk(node: unknown, visit: (n: Node & Record<string, any>) => void): void {
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit);
    return;
  }
  if (!node || typeof node !== 'object' || typeof (node as Node).type !== 'string') return;
  visit(node as Node & Record<string, any>);
  for (const key of Object.keys(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    walk((node as Record<string, unknown>)[key], visit);
  }
}

function scan(text: string): Found {
  const ast = parse(text, { ecmaVersion: 5, sourceType: 'script' });
  const found: Found = { globals: [], statics: [], methods: [], constructed: [] };
  walk(ast, (n) => {
    if (n.type === 'Identifier' && FORBIDDEN_GLOBALS.includes(n.name)) found.globals.push(n.name);
    if (n.type === 'MemberExpression' && !n.computed && n.object.type === 'Identifier') {
      const name = `${n.object.name}.${n.property.name}`;
      if (FORBIDDEN_STATICS.includes(name)) found.statics.push(name);
    }
    if (n.type === 'CallExpression' && n.callee.type === 'MemberExpression' && !n.callee.computed && FORBIDDEN_METHODS.includes(n.callee.property.name)) {
      found.methods.push(n.callee.property.name);
    }
    if (n.type === 'NewExpression') {
      const callee = n.callee;
      found.constructed.push(
        callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? `${callee.object.name ?? '?'}.${callee.property.name}` : callee.type,
      );
    }
  });
  return found;
}

describe('the served library scripts in ES5', () => {
  for (const kind of KINDS) {
    it(`parses the ${kind} script with an ES5 parser`, () => {
      const { text } = servedLibrary(BASE, kind);
      expect(() => parse(text, { ecmaVersion: 5, sourceType: 'script' })).not.toThrow();
      expect(text).toContain(`window.${kind === 'checkout' ? 'Checkout' : 'PaymentLink'} = `);
    });

    it(`uses no ES2015+ global, static or method in the ${kind} script`, () => {
      const found = scan(servedLibrary(BASE, kind).text);
      expect(found.globals).toEqual([]);
      expect(found.statics).toEqual([]);
      expect(found.methods).toEqual([]);
    });
  }

  it('constructs a CustomEvent only behind a typeof guard, with a createEvent fallback for IE11', () => {
    const { text } = servedLibrary(BASE, 'paymentlink');
    expect(scan(text).constructed).toContain('window.CustomEvent');
    expect(text).toMatch(/typeof window\.CustomEvent === 'function'/);
    expect(text).toContain("document.createEvent('CustomEvent')");
    expect(text).toContain('initCustomEvent(');
  });

  it('finds a forbidden API when one is there (the scan is not vacuous)', () => {
    const found = scan('var a = Object.assign({}, b); fetch("/x"); new Promise(function () {}); "abc".includes("a");');
    expect(found.statics).toEqual(['Object.assign']);
    expect(found.globals).toEqual(['fetch', 'Promise']);
    expect(found.methods).toEqual(['includes']);
    expect(() => parse('let a = () => 1;', { ecmaVersion: 5 })).toThrow();
  });

  it('builds the sandbox base URL into the script and hashes exactly the served bytes', () => {
    const one = servedLibrary('https://tunnel.example', 'checkout');
    expect(one.text).toContain('"baseUrl":"https://tunnel.example"');
    expect(one.integrity).toBe(`sha384-${createHash('sha384').update(Buffer.from(one.text, 'utf8')).digest('base64')}`);
    expect(libraryIntegrity('https://tunnel.example', 'checkout')).toBe(one.integrity);
    expect(servedLibrary('https://tunnel.example', 'checkout')).toEqual(one);
    expect(servedLibrary('https://other.example', 'checkout').integrity).not.toBe(one.integrity);
    expect(libraryPath('checkout')).toBe(`/checkout/${LIBRARY_VERSION}/checkout-library.js`);
  });
});
