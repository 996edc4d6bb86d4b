import { createHash, randomUUID } from 'node:crypto';

/**
 * Where identifiers come from. The default draws random UUIDs; a seeded generator makes ids and approval
 * codes reproducible (`paylink sandbox --deterministic`), so CI snapshots of seeded data stay stable.
 */
export interface IdSource {
  /** A lower-case UUID (links, checkouts, payments, tokens). */
  uuid(): string;
  /** `header.requestCode`: a numeric prefix, a dot, a UUID. */
  requestCode(): string;
  /** A six-character approval code of digits and upper-case letters. */
  approvalCode(): string;
}

const APPROVAL_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ';

function formatUuid(bytes: Buffer): string {
  // Version 4 and variant bits, so seeded ids are valid UUIDs too.
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex', 0, 16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A UUID made from the SHA-256 of `text`: reproducible ids outside the seeded counter (webhook events). */
export function uuidFromText(text: string): string {
  return formatUuid(createHash('sha256').update(text).digest());
}

function approvalFrom(bytes: Buffer): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += APPROVAL_ALPHABET[bytes[i]! % APPROVAL_ALPHABET.length];
  return code;
}

/** The request-code prefix: the provider's codes start with a short numeric node identifier. */
const REQUEST_CODE_PREFIX = '001';

/**
 * Random identifiers from the operating system's CSPRNG. UUIDs keep the version-4 layout (what the
 * provider hands out) but are ordered by creation: the first 12 hex digits are the time in milliseconds
 * and the 3 after the version digit count the ids made in that millisecond. New rows therefore land at
 * the end of the primary-key index instead of at random places in it (the time prefix alone took creations
 * up about 10%; the sequence keeps ids in order within a millisecond too, and changed the WAL pages
 * written per commit too little to measure, since SQLite rebalances the last index leaves on every
 * append). 62 bits stay random, which is plenty for ids that are not secrets (every lookup also checks
 * the business).
 */
export class RandomIds implements IdSource {
  private lastMs = 0;
  private sequence = 0;
  /** `tttttttt-tttt-4` of {@link lastMs}, made once per millisecond. */
  private prefix = '';

  uuid(): string {
    const now = Date.now();
    if (now > this.lastMs) {
      this.setMs(now);
    } else if (++this.sequence > 0xfff) {
      // 4096 ids in one millisecond (or a clock that went back): borrow the next millisecond.
      this.setMs(this.lastMs + 1);
    }
    // tttttttt-tttt-4sss-yxxx-xxxxxxxxxxxx: time, version 4, sequence, then the random UUID's variant and bits.
    return `${this.prefix}${this.sequence.toString(16).padStart(3, '0')}-${randomUUID().slice(19)}`;
  }

  private setMs(ms: number): void {
    this.lastMs = ms;
    this.sequence = 0;
    const time = ms.toString(16).padStart(12, '0').slice(-12);
    this.prefix = `${time.slice(0, 8)}-${time.slice(8, 12)}-4`;
  }

  requestCode(): string {
    return `${REQUEST_CODE_PREFIX}.${randomUUID()}`;
  }
  approvalCode(): string {
    return approvalFrom(Buffer.from(randomUUID().replace(/-/g, ''), 'hex'));
  }
}

/** Where {@link timeKeyOf} counts milliseconds from (2020-01-01), so keys stay exact doubles until 2089. */
const KEY_EPOCH_MS = Date.UTC(2020, 0, 1);
/** Largest millisecond offset whose key, times 4096 plus a 12-bit sequence, is still a safe integer. */
const KEY_MAX_OFFSET_MS = 2 ** 41 - 1;

/** The value of a lower-case hexadecimal digit's character code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/**
 * The integer a {@link RandomIds} id sorts by: its millisecond (from 2020) times 4096 plus its sequence. The
 * document tables use it as their SQLite rowid, so a lookup by id walks the table's own B-tree and no
 * separate index on the id text has to be written on every creation. Undefined for anything that is not
 * a lower-case version-4 UUID whose time lies between 2020 and 2089; such ids (seeded ones, or ids from an
 * older paylink) are found through a small index kept for them only (see `DocumentTable`). Two different
 * ids can share a key (same millisecond and sequence): callers compare the id too.
 */
export function timeKeyOf(id: string): number | undefined {
  // tttttttt-tttt-4sss-yxxx-xxxxxxxxxxxx, read once, character by character (every document write reads it).
  if (id.length !== 36 || id.charCodeAt(14) !== 52 /* 4 */) return undefined;
  const variant = id.charCodeAt(19);
  if (variant !== 56 && variant !== 57 && variant !== 97 && variant !== 98 /* 8 9 a b */) return undefined;
  let ms = 0;
  let sequence = 0;
  for (let i = 0; i < 36; i++) {
    const code = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (code !== 45 /* - */) return undefined;
      continue;
    }
    const digit = hexValue(code);
    if (digit < 0) return undefined;
    // The first 12 digits are the millisecond (48 bits: exact in a double); 15-17 the sequence.
    if (i < 13) ms = ms * 16 + digit;
    else if (i >= 15 && i < 18) sequence = sequence * 16 + digit;
  }
  const offset = ms - KEY_EPOCH_MS;
  if (offset < 0 || offset > KEY_MAX_OFFSET_MS) return undefined;
  return offset * 4096 + sequence;
}

/** The key {@link timeKeyOf} gives an id made at `ms` (the largest sequence), to bound plausible keys. */
export function timeKeyCeiling(ms: number): number {
  return (ms - KEY_EPOCH_MS) * 4096 + 0xfff;
}

/**
 * Reproducible identifiers: SHA-256 of the seed and a counter. The counter is persisted by the caller
 * (`counter` / `onAdvance`, called before each value is used; it throws to refuse one) so a restarted
 * sandbox does not hand out an id twice.
 */
export class SeededIds implements IdSource {
  private counter: number;

  constructor(
    private readonly seed: string,
    counter = 0,
    private readonly onAdvance?: (counter: number) => void,
  ) {
    this.counter = counter;
  }

  /** The last counter value handed out. */
  get position(): number {
    return this.counter;
  }

  /** Goes on from `position` (a restored snapshot's): the ids after it are handed out again, in the same order. */
  rewind(position: number): void {
    this.counter = position;
  }

  private next(): Buffer {
    this.onAdvance?.(this.counter + 1);
    this.counter += 1;
    return createHash('sha256').update(`${this.seed}:${this.counter}`).digest();
  }

  uuid(): string {
    return formatUuid(this.next());
  }
  requestCode(): string {
    return `${REQUEST_CODE_PREFIX}.${this.uuid()}`;
  }
  approvalCode(): string {
    return approvalFrom(this.next());
  }
}
