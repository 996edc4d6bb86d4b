/**
 * The rule for text that ends up in terminals, logs and pages: no C0 control characters and no DEL (a
 * holder name, a descriptor, a URL, an identifier). One rule, one message, wherever such text comes in.
 */
import { invalidValue } from '../errors.js';

/** Whether `text` holds a C0 control character (U+0000 to U+001F) or DEL (U+007F). */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Refuses `text` with 1002 naming `path` when it holds a control character. */
export function refuseControlCharacters(text: string, path: string): void {
  if (hasControlCharacters(text)) throw invalidValue(path, 'Control characters are not allowed.');
}
