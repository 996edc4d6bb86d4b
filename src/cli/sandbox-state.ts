/**
 * The state file a running `paylink sandbox` leaves in `.paylink/sandbox.json` of the folder it was started
 * in (where its default database lives), so that the other commands, run from that folder or below it with
 * no base URL configured, find it on whatever port it got. Removed when the sandbox stops; a file left by
 * a killed sandbox is ignored because its process is gone.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the state file lives, relative to the folder the sandbox was started in. */
export const STATE_FILE = join('.paylink', 'sandbox.json');

/** What the file holds. */
export interface SandboxState {
  /** The base URL the CLI should use: the sandbox's public URL, else where it listens. */
  url: string;
  pid: number;
  /** ISO 8601. */
  startedAt: string;
}

/** Writes the state file in `cwd`; answers its path. */
export function writeSandboxState(cwd: string, state: SandboxState): string {
  const path = join(cwd, STATE_FILE);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(state, null, 2)}\n`);
  return path;
}

/** Removes the state file at `path` if it is still this process's (another sandbox may have replaced it). */
export function removeSandboxState(path: string, pid = process.pid): void {
  try {
    const state = JSON.parse(readFileSync(path, 'utf8')) as Partial<SandboxState>;
    if (state.pid === pid) rmSync(path, { force: true });
  } catch {
    // Gone already, or not ours to judge: leave it.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The sandbox state file of `cwd` or the nearest folder above it, when its sandbox process is still
 * running; undefined otherwise.
 */
export function findSandboxState(cwd: string): (SandboxState & { path: string }) | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    const path = join(dir, STATE_FILE);
    if (existsSync(path)) {
      try {
        const state = JSON.parse(readFileSync(path, 'utf8')) as Partial<SandboxState>;
        if (typeof state.url === 'string' && /^https?:\/\//.test(state.url) && typeof state.pid === 'number' && isAlive(state.pid)) {
          return { url: state.url, pid: state.pid, startedAt: String(state.startedAt ?? ''), path };
        }
      } catch {
        // A torn or foreign file: not a sandbox to use.
      }
      return undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
