// Module hooks of record.mjs: writes the URL of every resolved ES module import.
import { appendFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let out;

export function initialize(data) {
  out = data.out;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(out, `${resolved.url.startsWith('file:') ? fileURLToPath(resolved.url) : resolved.url}\n`);
  return resolved;
}
