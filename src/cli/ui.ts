/**
 * The one home of chalk, ora and prompts. Human output goes to stdout (results) and stderr (notes,
 * spinners, prompts) with colour when the stream is a TTY and neither NO_COLOR nor `--no-color` is set;
 * with `--json` stdout holds exactly one JSON document and nothing else. ora and @inquirer/prompts are
 * imported on first use so that `paylink sandbox` starts fast.
 */
import { isatty } from 'node:tty';
import { Chalk, type ChalkInstance } from 'chalk';
import { CancelledError, UsageError } from './errors.js';

export interface UiStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface UiOptions {
  /** Machine output: one JSON document on stdout, no spinners, no notes. */
  json?: boolean | undefined;
  /** Results only: no notes, no spinners. */
  quiet?: boolean | undefined;
  /** `false` with `--no-color`. */
  color?: boolean | undefined;
  /**
   * May the CLI ask questions? True on a TTY outside CI (see {@link canPrompt}); tests set it with an
   * injected {@link Prompter}.
   * @default false
   */
  interactive?: boolean | undefined;
  /** Answers questions; defaults to @inquirer/prompts on stdin/stderr. */
  prompter?: Prompter | undefined;
  /** Why questions are off, for the "missing --flag" error (see {@link whyNoPrompt}). @default "no terminal to ask on" */
  noPromptReason?: string | undefined;
  /** Environment (NO_COLOR). @default process.env */
  env?: NodeJS.ProcessEnv | undefined;
}

export interface Choice<T> {
  name: string;
  value: T;
  checked?: boolean;
}

/** The questions the CLI asks; injected in tests. */
export interface Prompter {
  input(question: { message: string; default?: string; validate?: (value: string) => true | string }): Promise<string>;
  select<T>(question: { message: string; choices: Choice<T>[]; default?: T }): Promise<T>;
  checkbox<T>(question: { message: string; choices: Choice<T>[]; validate?: (values: readonly T[]) => true | string }): Promise<T[]>;
}

/**
 * True when a person can answer: stdin and stderr are terminals and CI is unset. Asked of fd 0 rather than
 * `process.stdin`, whose first read creates the stream (an fs or tty stream: about 1 ms of every start).
 */
export function canPrompt(
  env: NodeJS.ProcessEnv = process.env,
  stdin: { isTTY?: boolean } = { isTTY: isatty(0) },
  stderr: { isTTY?: boolean } = process.stderr,
): boolean {
  return whyNoPrompt(env, stdin, stderr) === undefined;
}

/** Why the CLI may not ask questions here, in words for the "missing --flag" error; undefined when it may. */
export function whyNoPrompt(
  env: NodeJS.ProcessEnv = process.env,
  stdin: { isTTY?: boolean } = { isTTY: isatty(0) },
  stderr: { isTTY?: boolean } = process.stderr,
): string | undefined {
  if (stdin.isTTY !== true || stderr.isTTY !== true) return 'no terminal to ask on';
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0';
  if (ci) return `CI=${env.CI} is set, which turns questions off`;
  return undefined;
}

const same = (text: string) => text;

/**
 * @inquirer/prompts' theme without a colour: its own theme colours whenever the terminal can (it reads
 * NO_COLOR once, and never sees `--no-color`), so with colour off every styled piece is replaced by plain
 * text, keeping its symbols (issue 31, item 17).
 */
const PLAIN_THEME = {
  prefix: { idle: '?', done: '\u2714' },
  spinner: { interval: 80, frames: ['-', '\\', '|', '/'] },
  icon: { checked: '\u25c9', unchecked: '\u25ef', cursor: '\u276f' },
  style: {
    answer: same,
    message: same,
    error: (text: string) => `> ${text}`,
    defaultAnswer: (text: string) => `(${text})`,
    help: same,
    highlight: same,
    key: (text: string) => `<${text}>`,
    description: same,
    disabled: (text: string) => `- ${text}`,
    disabledChoice: (text: string) => `- ${text}`,
    keysHelpTip: (keys: [string, string][]) => keys.map(([key, action]) => `${key} ${action}`).join(' \u2022 '),
  },
};

/** @inquirer/prompts, drawing on stderr so that stdout stays clean; plain text when `color` is false. */
function inquirerPrompter(color: boolean): Prompter {
  const context = { output: process.stderr };
  const theme = color ? undefined : PLAIN_THEME;
  return {
    async input(q) {
      const { input } = await import('@inquirer/prompts');
      return input({ message: q.message, default: q.default, validate: q.validate, theme }, context);
    },
    async select(q) {
      const { select } = await import('@inquirer/prompts');
      return select({ message: q.message, choices: q.choices, default: q.default, theme }, context);
    },
    async checkbox(q) {
      const { checkbox } = await import('@inquirer/prompts');
      return checkbox(
        { message: q.message, choices: q.choices, validate: q.validate ? (items) => q.validate!(items.map((i) => i.value)) : undefined, theme },
        context,
      );
    },
  };
}

/** A running spinner, or a no-op stand-in when spinners are off. */
export interface Spinner {
  text(text: string): void;
  succeed(text?: string): void;
  fail(text?: string): void;
  stop(): void;
}

export class Ui {
  readonly color: ChalkInstance;
  readonly interactive: boolean;
  private readonly prompter: Prompter;
  /** A value the command needs was asked for in this run (see {@link offerAlong}). */
  private askedNeeded = false;

  constructor(
    readonly streams: UiStreams,
    readonly options: UiOptions = {},
  ) {
    const env = options.env ?? process.env;
    const colorAllowed = options.color !== false && !('NO_COLOR' in env && env.NO_COLOR !== '');
    this.color = new Chalk({ level: colorAllowed && streams.stdout.isTTY === true ? 1 : 0 });
    this.interactive = options.interactive === true;
    this.prompter = options.prompter ?? inquirerPrompter(colorAllowed);
  }

  /** Machine output: one JSON document on stdout. */
  json(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A result line for people on stdout (suppressed with --json). */
  line(text = ''): void {
    if (this.options.json) return;
    this.streams.stdout.write(`${terminalSafe(text)}\n`);
  }

  heading(text: string): void {
    this.line(this.color.bold(text));
  }

  field(name: string, value: string): void {
    this.line(`  ${this.color.dim(`${name}:`.padEnd(18))} ${value}`);
  }

  /** Columns of the terminal stdout draws on; undefined on a pipe or file (no limit there). */
  get width(): number | undefined {
    const columns = (this.streams.stdout as { columns?: number }).columns;
    return this.streams.stdout.isTTY === true && columns !== undefined && columns > 0 ? columns : undefined;
  }

  /**
   * A table with a header row, columns padded to their widest cell. On a terminal, a last column that
   * would pass its width wraps at spaces onto lines of its own below the cell, so no row wraps.
   */
  table(columns: string[], rows: string[][]): void {
    const widths = columns.map((c, i) => Math.max(visible(c).length, ...rows.map((r) => visible(r[i] ?? '').length)));
    const last = columns.length - 1;
    const start = 2 + widths.slice(0, last).reduce((sum, w) => sum + w + 2, 0);
    const room = this.width === undefined ? Infinity : Math.max(20, this.width - start - 1);
    widths[last] = Math.min(widths[last]!, room);
    const pad = (cells: string[]) =>
      cells
        .map((cell, i) => cell + ' '.repeat(Math.max(0, widths[i]! - visible(cell).length)))
        .join('  ')
        .trimEnd();
    this.line(`  ${this.color.dim(pad(columns))}`);
    for (const row of rows) {
      const [first, ...more] = wrapWords(row[last] ?? '', room);
      this.line(`  ${pad([...row.slice(0, last), first ?? ''])}`);
      for (const rest of more) this.line(`${' '.repeat(start)}${rest}`);
    }
  }

  /** `text` on stdout, wrapped at spaces to the terminal's width with `indent` before each line. */
  wrapped(text: string, indent = '  '): void {
    const room = this.width === undefined ? Infinity : Math.max(20, this.width - indent.length - 1);
    for (const line of wrapWords(text, room)) this.line(`${indent}${line}`);
  }

  /** A note for people on stderr (suppressed with --json or --quiet). */
  info(text: string): void {
    if (this.options.quiet || this.options.json) return;
    this.streams.stderr.write(`${terminalSafe(this.color.dim(text))}\n`);
  }

  /** A plain line on stderr that is never suppressed ("Cancelled."). */
  note(text: string): void {
    this.streams.stderr.write(`${terminalSafe(text)}\n`);
  }

  /** A warning on stderr (suppressed with --json or --quiet). */
  warn(text: string): void {
    if (this.options.quiet || this.options.json) return;
    this.streams.stderr.write(`${this.color.yellow('warning')} ${terminalSafe(text)}\n`);
  }

  error(text: string): void {
    this.streams.stderr.write(`${this.color.red('error')} ${terminalSafe(text)}\n`);
  }

  /** Colours a result code for people: green for 0, yellow for 2 and 4, red for failures. */
  result(result: number, description: string): string {
    const text = `${description} (${result})`;
    if (result === 0) return this.color.green(text);
    if (result > 0) return this.color.yellow(text);
    return this.color.red(text);
  }

  /** Colours a lifecycle state. */
  state(state: string): string {
    if (state === 'PAID' || state === 'READY') return this.color.green(state);
    if (state === 'PENDING') return this.color.yellow(state);
    return this.color.red(state);
  }

  /**
   * Runs `work` under a spinner on stderr; no spinner with --json, --quiet, or when stderr is not a TTY.
   * The spinner stops (success or failure) before the result is printed.
   */
  async spin<T>(text: string, work: (spinner: Spinner) => Promise<T>): Promise<T> {
    // A terminal of zero width (a pty nobody sized) makes ora's line clearing run away: no spinner there.
    const columns = (this.streams.stderr as { columns?: number }).columns ?? 0;
    if (this.options.json || this.options.quiet || this.streams.stderr.isTTY !== true || columns <= 0) {
      return work({ text() {}, succeed() {}, fail() {}, stop() {} });
    }
    const [{ default: ora }, { interrupt, interruption }] = await Promise.all([import('ora'), import('./interrupt.js')]);
    // discardStdin off: ora's discarder puts stdin in raw mode, so the terminal sends no SIGINT for Ctrl-C,
    // and never reads stdin (it adds its 'data' listener without resuming the stream), so it never sees the
    // Ctrl-C byte either: Ctrl-C did nothing until the request timed out. The terminal stays cooked instead,
    // and the SIGINT it sends ends the wait below at once (exit 130), aborting the requests in flight.
    const spinner = ora({ text, stream: this.streams.stderr, color: 'cyan', discardStdin: false }).start();
    const onInterrupt = () => interrupt();
    process.on('SIGINT', onInterrupt);
    let fail = () => {};
    const interrupted = new Promise<never>((_, reject) => {
      fail = () => reject(interruption.reason as Error);
      if (interruption.aborted) fail();
      else interruption.addEventListener('abort', fail, { once: true });
    });
    const handle: Spinner = {
      text: (t) => {
        spinner.text = t;
      },
      succeed: (t) => void spinner.succeed(t),
      fail: (t) => void spinner.fail(t),
      stop: () => void spinner.stop(),
    };
    try {
      const value = await Promise.race([work(handle), interrupted]);
      if (spinner.isSpinning) spinner.stop();
      return value;
    } catch (error) {
      if (spinner.isSpinning) spinner.stop();
      throw error;
    } finally {
      process.off('SIGINT', onInterrupt);
      interruption.removeEventListener('abort', fail);
    }
  }

  /**
   * A value the command needs: `given` when present; else asked when a person is there; else a usage
   * error naming the flag, so CI runs never hang on a prompt.
   */
  async need<T>(given: T | undefined, flag: string, ask: (prompter: Prompter) => Promise<T>): Promise<T> {
    if (given !== undefined) return given;
    if (!this.interactive) this.missing([flag]);
    this.askedNeeded = true;
    return asked(ask(this.prompter));
  }

  /**
   * Without a person to ask, names every missing flag of `values` at once (a usage error); with one,
   * does nothing (the command asks for each).
   */
  require(values: Record<string, unknown>): void {
    if (this.interactive) return;
    const missing = Object.entries(values)
      .filter(([, value]) => value === undefined)
      .map(([flag]) => flag);
    if (missing.length > 0) this.missing(missing);
  }

  private missing(flags: string[]): never {
    const reason = this.options.noPromptReason ?? 'no terminal to ask on';
    const list = flags.length === 1 ? flags[0]! : `${flags.slice(0, -1).join(', ')} and ${flags[flags.length - 1]}`;
    throw new UsageError(`missing ${list} (${reason}: pass ${list}).`);
  }

  /**
   * An optional value: `given`, else asked when a person is there, else `fallback`. Never asked with
   * --json: a scripted call (`$(paylink ... --json)`) on a terminal takes the default rather than stop.
   */
  async offer<T>(given: T | undefined, fallback: T, ask: (prompter: Prompter) => Promise<T>): Promise<T> {
    if (given !== undefined) return given;
    if (!this.interactive || this.options.json) return fallback;
    return asked(ask(this.prompter));
  }

  /**
   * An optional value that is asked only beside the values the command needs: when one of them was asked
   * (see {@link need}), a person is filling the command in and chooses this too; when every needed flag was
   * given, the command runs as typed with `fallback`, asking nothing.
   */
  async offerAlong<T>(given: T | undefined, fallback: T, ask: (prompter: Prompter) => Promise<T>): Promise<T> {
    if (given !== undefined) return given;
    if (!this.askedNeeded) return fallback;
    return this.offer(given, fallback, ask);
  }

  /** Would {@link offer} ask a person (a terminal, no `--json`)? */
  get asks(): boolean {
    return this.interactive && this.options.json !== true;
  }
}

/**
 * A question's answer; Ctrl-C (or Escape-closing) at the prompt becomes a {@link CancelledError}, which
 * the CLI reports as "Cancelled." with exit code 130 instead of a stack trace.
 */
async function asked<T>(answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    // @inquirer/prompts' errors, recognised by name so that this module does not load the package.
    const name = (error as Error | null)?.name;
    if (name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError') throw new CancelledError();
    throw error;
  }
}

/**
 * Splits `text` at spaces into lines of at most `room` visible characters (a word longer than that stays
 * whole). Colour codes ride with their words, and a terminal keeps a colour across lines until its reset.
 */
function wrapWords(text: string, room: number): string[] {
  if (visible(text).length <= room) return [text];
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(' ')) {
    const next = current === '' ? word : `${current} ${word}`;
    if (current !== '' && visible(next).length > room) {
      lines.push(current);
      current = word;
    } else current = next;
  }
  lines.push(current);
  return lines;
}

// Width without ANSI colour codes, for padding coloured cells.
/**
 * What a line may carry to a terminal: text from the sandbox (a receiver's answer, a descriptor, an error
 * message) can hold control characters that set the window title, clear the screen or move the cursor
 * (issue 32, item 12). Every C0 control but newline and tab, DEL and every C1 control is shown escaped
 * (`\x1b`), except the colour sequences (`ESC [ n;n m`) the Ui itself writes, which do nothing else.
 */
export function terminalSafe(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding the terminal's control characters is the point
  return text.replace(/(\u001b\[[0-9;]*m)|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (match, colour: string | undefined) =>
    colour !== undefined ? colour : `\\x${match.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

function visible(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing the colour sequences is the point
  return text.replace(/\u001b\[[0-9;]*m/g, '');
}
