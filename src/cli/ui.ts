/**
 * The one home of chalk, ora and prompts. Human output goes to stderr/stdout with colour when the stream
 * is a TTY and NO_COLOR is unset; with `--json` only the JSON goes to stdout.
 */
import { Chalk } from 'chalk';

export interface UiStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface UiOptions {
  json?: boolean;
  quiet?: boolean;
  color?: boolean;
}

export class Ui {
  readonly color;
  constructor(
    readonly streams: UiStreams,
    readonly options: UiOptions = {},
  ) {
    const useColor = options.color !== false && !('NO_COLOR' in process.env) && streams.stdout.isTTY === true;
    this.color = new Chalk({ level: useColor ? 1 : 0 });
  }

  /** Machine output: one JSON document on stdout. */
  json(value: unknown): void {
    this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A line for people on stdout (suppressed with --json or --quiet). */
  line(text = ''): void {
    if (this.options.json || this.options.quiet) return;
    this.streams.stdout.write(`${text}\n`);
  }

  heading(text: string): void {
    this.line(this.color.bold(text));
  }

  field(name: string, value: string): void {
    this.line(`  ${this.color.dim(`${name}:`.padEnd(14))} ${value}`);
  }

  info(text: string): void {
    if (this.options.quiet) return;
    this.streams.stderr.write(`${this.color.dim(text)}\n`);
  }

  error(text: string): void {
    this.streams.stderr.write(`${this.color.red('error')} ${text}\n`);
  }
}
