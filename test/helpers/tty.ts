/**
 * Runs `node bin/paylink.js` on a real pseudo-terminal through util-linux `script`, so that prompts, raw
 * mode and Ctrl-C behave as they do for a person. Keystrokes are sent once the screen shows what they
 * answer.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/paylink.js', import.meta.url));
export const hasScript = existsSync('/usr/bin/script');

/**
 * One keystroke sequence, sent once the output so far matches `when`; or a step of the test's own run
 * then (`send` a function of the match: its answer is typed, '' for none), say a request to the sandbox.
 */
export interface Keys {
  when: RegExp;
  send: string | ((match: RegExpExecArray) => Promise<string>);
}

export interface TtyRun {
  code: number | null;
  /** Everything the terminal showed (stdout and stderr), ANSI sequences removed. */
  screen: string;
  /** The same with its ANSI sequences, to check colours. */
  raw: string;
}

export const CTRL_C = '\u0003';
export const ENTER = '\r';

/** Removes colour and cursor sequences. */
export function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the terminal's escape sequences is the point
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI with `args` on a pty, typing `keys` in order. */
export function runInTty(
  args: string[],
  keys: Keys[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; columns?: number } = {},
): Promise<TtyRun> {
  // `script` opens a pty of zero width, on which the CLI shows no spinner: `columns` sizes it as a terminal.
  const size = options.columns === undefined ? '' : `stty cols ${options.columns} rows 40; `;
  const command = size + [process.execPath, BIN, ...args].map(quote).join(' ');
  return new Promise((resolve) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, TERM: 'xterm', COLUMNS: '120', LINES: '40', HOME: process.env.HOME ?? '/tmp', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let raw = '';
    let next = 0;
    let consumed = 0;
    let busy = false;
    const pump = () => {
      while (next < keys.length && !busy) {
        const screen = plain(raw).slice(consumed);
        const match = keys[next]!.when.exec(screen);
        if (!match) return;
        consumed += match.index + match[0].length;
        const send = keys[next]!.send;
        next += 1;
        if (typeof send === 'string') {
          child.stdin.write(send);
          continue;
        }
        busy = true;
        void send(match).then(
          (typed) => {
            if (typed !== '') child.stdin.write(typed);
            busy = false;
            pump();
          },
          (error: unknown) => {
            raw += `\n[test step failed: ${(error as Error).message}]\n`;
            child.kill('SIGKILL');
          },
        );
      }
    };
    child.stdout.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
      pump();
    });
    child.stderr.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen: plain(raw), raw });
    });
  });
}
