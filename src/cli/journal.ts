/**
 * What the CLI remembers between runs, in `.paylink/cli-journal.json` under the working directory: the
 * returnUrl given when a link or checkout was created, and where `paylink pay` was last redirected. The API
 * never returns a returnUrl, so `paylink follow` needs this (or `--return-url`).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface JournalEntry {
  kind: 'link' | 'checkout';
  baseUrl: string;
  returnUrl?: string | undefined;
  /** The last returnUrl redirect the hosted page answered for this id. */
  lastRedirect?: string | undefined;
}

const LIMIT = 500;

export class Journal {
  readonly path: string;
  constructor(cwd = process.cwd()) {
    this.path = join(cwd, '.paylink', 'cli-journal.json');
  }

  private read(): Record<string, JournalEntry> {
    try {
      const parsed = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, JournalEntry>) : {};
    } catch {
      return {};
    }
  }

  get(id: string): JournalEntry | undefined {
    return this.read()[id];
  }

  /**
   * Merges `entry` into the one for `id`. Failing to write (read-only folder) is not worth failing a
   * command for: the journal is a convenience.
   */
  remember(id: string, entry: JournalEntry): void {
    try {
      const all = this.read();
      all[id] = { ...all[id], ...Object.fromEntries(Object.entries(entry).filter(([, v]) => v !== undefined)) } as JournalEntry;
      const keys = Object.keys(all);
      for (const old of keys.slice(0, Math.max(0, keys.length - LIMIT))) delete all[old];
      mkdirSync(dirname(this.path), { recursive: true });
      const temp = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temp, JSON.stringify(all, null, 2));
      renameSync(temp, this.path);
    } catch {
      // see above
    }
  }
}
