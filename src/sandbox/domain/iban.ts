/**
 * IBANs (ISO 13616): check digits, and whether a text is a well-formed IBAN. Pure.
 */

/** The value of an IBAN's letters and digits as ISO 7064 mod 97-10 reads them, modulo 97. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text) {
    const value = char >= 'A' && char <= 'Z' ? String(char.charCodeAt(0) - 55) : char;
    for (const digit of value) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder;
}

/** The two check digits of an IBAN of `country` (two letters) with this BBAN (bank code and account). */
export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(bban + country + '00')).padStart(2, '0');
}

/** `iban` without spaces, upper case, if it is a well-formed IBAN with valid check digits; else undefined. */
export function normalIban(iban: string): string | undefined {
  const text = iban.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(text)) return undefined;
  return mod97(text.slice(4) + text.slice(0, 4)) === 1 ? text : undefined;
}

/** An IBAN as pages and the CLI show it: its country and check digits and its last four characters (`DE89 ···· 3000`). */
export function maskIban(iban: string): string {
  const text = iban.replace(/\s+/g, '').toUpperCase();
  return text.length <= 8 ? '····' : `${text.slice(0, 4)} ···· ${text.slice(-4)}`;
}
