/**
 * Certificates carry random serial numbers; DER allows one encoding of each. A serial whose first random byte
 * was 0 was written padded, and Node refused the certificate ("asn1 illegal padding") about once in 256.
 */
import { describe, expect, it } from 'vitest';
import { positiveInteger } from '../../src/sandbox/drop-in/x509.js';

const hex = (bytes: number[]) => positiveInteger(Buffer.from(bytes)).toString('hex');

describe('DER integers in certificates', () => {
  it('drops leading zero bytes that carry nothing', () => {
    expect(hex([0x00, 0x05])).toBe('020105');
    expect(hex([0x00, 0x00, 0x7f, 0x01])).toBe('02027f01');
  });

  it('keeps one zero byte where the high bit would read as negative', () => {
    expect(hex([0x80])).toBe('02020080');
    expect(hex([0x00, 0x00, 0x9a])).toBe('0202009a');
  });

  it('writes zero as one byte', () => {
    expect(hex([0x00, 0x00])).toBe('020100');
  });
});
