/**
 * What kind of storage failure an error from SQLite is, by its extended result code (`SQLITE_BUSY_SNAPSHOT`
 * is a busy, `SQLITE_IOERR_WRITE` an I/O error), so the app can answer each with an envelope that says what
 * to do, instead of a bare 500.
 */
export type StorageFailure = 'busy' | 'full' | 'corrupt' | 'readonly' | 'io';

export function storageFailure(error: unknown): StorageFailure | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || !code.startsWith('SQLITE_')) return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'corrupt';
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN')) return 'readonly';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return undefined;
}

/** Whether an insert failed on a unique index (a tracking code already used by the business, say). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
