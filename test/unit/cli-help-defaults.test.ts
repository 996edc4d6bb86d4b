/**
 * The CLI's help names a default by the constant that holds it (the sandbox's domain/, the CLI's defaults.ts),
 * never by writing its value again: read from the source of the declarations (src/cli/flags.ts and
 * src/cli/commands/*.spec.ts), since the help the program shows reads the same either way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUSINESS_ID, LOCAL_TIMEOUT_SECONDS, REMOTE_TIMEOUT_SECONDS, SANDBOX_DEFAULTS, SCENARIO_PAYMENT_DEFAULTS } from '../../src/cli/defaults.js';
import { PROGRAM_FLAGS } from '../../src/cli/flags.js';
import { COMMANDS } from '../../src/cli/registry.js';
import { DEFAULT_LOG_MAX_BYTES } from '../../src/sandbox/domain/defaults.js';
import { DEFAULT_HOLDER_NAME, defaultCardFields } from '../../src/sandbox/domain/hosted-form.js';
import { THREE_DS_APPROVE_CODE } from '../../src/sandbox/domain/test-cards.js';
import { DEFAULT_SIGNATURE_HEADER } from '../../src/sandbox/domain/webhook-signature.js';

const CLI = fileURLToPath(new URL('../../src/cli/', import.meta.url));
const MIB = 1024 * 1024;

/** Where help texts are written: flags.ts and every command's spec, by path from src/cli/. */
const DECLARATIONS = [
  'flags.ts',
  ...readdirSync(join(CLI, 'commands'))
    .filter((file) => file.endsWith('.spec.ts'))
    .map((file) => `commands/${file}`),
];

/** A source without its comments (a comment may name a value; only code makes help). */
const code = (file: string) =>
  readFileSync(join(CLI, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** Each default, as its value would be written into a help text by hand. */
const SPELLED: Array<{ name: string; pattern: RegExp }> = [
  { name: 'DEFAULT_HOLDER_NAME', pattern: new RegExp(DEFAULT_HOLDER_NAME) },
  { name: 'the expiry month and CVVs of defaultCardFields', pattern: /default (12|123)\b|1234 for/ },
  { name: 'the expiry year of defaultCardFields', pattern: /three years|\d years? ahead|year \+ \d/ },
  { name: 'DEFAULT_SIGNATURE_HEADER', pattern: new RegExp(DEFAULT_SIGNATURE_HEADER) },
  { name: 'DEFAULT_LOG_MAX_BYTES', pattern: new RegExp(`\\(default ${DEFAULT_LOG_MAX_BYTES / MIB}\\)`) },
  { name: 'THREE_DS_APPROVE_CODE', pattern: new RegExp(`${THREE_DS_APPROVE_CODE} approves`) },
  { name: 'SCENARIO_PAYMENT_DEFAULTS', pattern: new RegExp(`\\(default (${SCENARIO_PAYMENT_DEFAULTS.amount}|${SCENARIO_PAYMENT_DEFAULTS.currency})\\)`) },
  { name: 'LOCAL_TIMEOUT_SECONDS', pattern: new RegExp(`default ${LOCAL_TIMEOUT_SECONDS} for`) },
  { name: 'REMOTE_TIMEOUT_SECONDS', pattern: new RegExp(`${REMOTE_TIMEOUT_SECONDS} otherwise`) },
  { name: 'DEFAULT_BUSINESS_ID', pattern: new RegExp(DEFAULT_BUSINESS_ID) },
  { name: 'SANDBOX_DEFAULTS.port', pattern: new RegExp(`\\b${SANDBOX_DEFAULTS.port}\\b`) },
  { name: 'SANDBOX_DEFAULTS.db', pattern: new RegExp(SANDBOX_DEFAULTS.db.replace(/\./g, '\\.')) },
];

/** Every option's help, as `paylink <words> --help` lists it. */
function helpTexts(): string[] {
  const walk = (specs: typeof COMMANDS): string[] =>
    specs.flatMap((spec) => [...Object.values(spec.options ?? {}).map((f) => f.help), spec.help ?? '', ...walk(spec.commands ?? [])]);
  return [...Object.values(PROGRAM_FLAGS).map((f) => f.help), ...walk(COMMANDS)];
}

describe('the defaults the CLI help shows', () => {
  it('are written by their constants, never as their values, in the flag declarations', () => {
    const spelled = DECLARATIONS.flatMap((file) => {
      const text = code(file);
      return SPELLED.filter(({ pattern }) => pattern.test(text)).map(({ name }) => `${file}: the value of ${name}`);
    });
    expect(spelled).toEqual([]);
  });

  it('finds a value written by hand (the check works)', () => {
    const text = "holder: flag('--holder <name>', 'card holder name (default Test Customer)'),";
    expect(SPELLED.filter(({ pattern }) => pattern.test(text)).map(({ name }) => name)).toEqual(['DEFAULT_HOLDER_NAME']);
  });

  it('still show those values', () => {
    const help = helpTexts().join('\n');
    for (const shown of [
      `(default ${DEFAULT_HOLDER_NAME})`,
      `(default: the sandbox clock's year + ${Number(defaultCardFields(undefined, 2000).expiryYear) - 2000})`,
      `default ${LOCAL_TIMEOUT_SECONDS} for a local sandbox, ${REMOTE_TIMEOUT_SECONDS} otherwise`,
      `(default ${DEFAULT_LOG_MAX_BYTES / MIB})`,
      `(${THREE_DS_APPROVE_CODE} approves)`,
      `of ${SCENARIO_PAYMENT_DEFAULTS.amount} ${SCENARIO_PAYMENT_DEFAULTS.currency} unless`,
    ])
      expect(help).toContain(shown);
  });
});
