/**
 * `paylink completion bash|zsh|fish`: prints a completion script built from the program's own commands and
 * options, so it never drifts from the CLI. zsh uses the same function through bashcompinit; fish gets its
 * own `complete` lines.
 */
import type { Run } from '../command-spec.js';
import type { completion as spec } from './completion.spec.js';
import type { Command, Option } from 'commander';
import { OUTCOME_NAMES } from '../../sandbox/domain/test-cards.js';
import { UsageError } from '../errors.js';
import { BRAND_WORDS } from '../options.js';

/** Values offered after an option that takes one. */
const VALUES: Record<string, string> = {
  '--outcome': OUTCOME_NAMES.join(' '),
  '--tokenize': 'false inquire true',
  // What parseBrand takes by name; ids work too, but a list of numbers helps nobody pick.
  '--brand': BRAND_WORDS.join(' '),
  '--currency': 'EUR USD GBP CHF JPY',
};

function optionNames(options: readonly Option[]): string[] {
  return options.flatMap((o) => [o.long, o.short].filter((f): f is string => typeof f === 'string'));
}

interface Node {
  path: string;
  words: string[];
}

function walk(command: Command, prefix: string, globals: string[], out: Node[]): void {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  const words = [...subs.map((c) => c.name()), ...optionNames(command.options), ...globals, '--help'];
  out.push({ path: prefix, words: [...new Set(words)] });
  for (const sub of subs) walk(sub, prefix ? `${prefix} ${sub.name()}` : sub.name(), globals, out);
}

/** The completion script for `shell`. */
export function completionScript(program: Command, shell: string): string {
  if (shell !== 'bash' && shell !== 'zsh' && shell !== 'fish') throw new UsageError(`completion: expected bash, zsh or fish, got "${shell}".`);
  if (shell === 'fish') return fishScript(program);
  const globals = optionNames(program.options);
  const nodes: Node[] = [];
  walk(program, '', [], nodes);
  const valued = new Set<string>();
  const collect = (c: Command) => {
    for (const o of c.options) if (o.required || o.optional) for (const n of optionNames([o])) valued.add(n);
    c.commands.forEach(collect);
  };
  collect(program);
  const cases = nodes
    .map((n) => `    "${n.path}") words="${(n.path === '' ? n.words : [...n.words, ...globals]).filter((w, i, a) => a.indexOf(w) === i).join(' ')}" ;;`)
    .join('\n');
  const values = Object.entries(VALUES)
    .map(([flag, list]) => `    ${flag}) COMPREPLY=( $(compgen -W "${list}" -- "$cur") ); return 0 ;;`)
    .join('\n');
  const body = `_paylink() {
  local cur prev path w i skip words
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
${values}
    completion) COMPREPLY=( $(compgen -W "bash zsh fish" -- "$cur") ); return 0 ;;
  esac
  case " ${[...valued].join(' ')} " in
    *" $prev "*) return 0 ;;
  esac
  path=""
  skip=0
  for (( i=1; i<COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    if (( skip )); then skip=0; continue; fi
    case " ${[...valued].join(' ')} " in *" $w "*) skip=1; continue ;; esac
    [[ "$w" == -* ]] && continue
    if [[ -z "$path" ]]; then path="$w"; else path="$path $w"; fi
  done
  words=""
  while :; do
    case "$path" in
${cases}
      *) if [[ "$path" == *" "* ]]; then path="\${path% *}"; continue; else words=""; fi ;;
    esac
    break
  done
  COMPREPLY=( $(compgen -W "$words" -- "$cur") )
}`;
  if (shell === 'bash')
    return `# paylink bash completion. Install: paylink completion bash > ~/.local/share/bash-completion/completions/paylink\n${body}\ncomplete -F _paylink paylink\n`;
  return `#compdef paylink\n# paylink zsh completion. Install: paylink completion zsh > "\${fpath[1]}/_paylink" (or eval "$(paylink completion zsh)" in ~/.zshrc)\nautoload -U +X bashcompinit && bashcompinit\n${body}\ncomplete -F _paylink paylink\n`;
}

/** A fish string literal. */
function fishQuote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The `complete` lines of one option, with its values when it takes some. */
function fishOption(option: Option, condition: string | undefined): string {
  const parts = ['complete -c paylink'];
  if (condition) parts.push(`-n ${fishQuote(condition)}`);
  if (option.long) parts.push(`-l ${option.long.replace(/^--/, '')}`);
  if (option.short) parts.push(`-s ${option.short.replace(/^-/, '')}`);
  if (option.required || option.optional) {
    parts.push('-r');
    const values = option.long ? VALUES[option.long] : undefined;
    if (values) parts.push(`-f -a ${fishQuote(values)}`);
  }
  if (option.description) parts.push(`-d ${fishQuote(option.description)}`);
  return parts.join(' ');
}

/**
 * fish: each subcommand is offered once its parents are on the line and none of its siblings is, and each
 * option once its command is (`__fish_seen_subcommand_from`).
 */
function fishScript(program: Command): string {
  const lines = ['# paylink fish completion. Install: paylink completion fish > ~/.config/fish/completions/paylink.fish', 'complete -c paylink -f'];
  for (const option of program.options) lines.push(fishOption(option, undefined));
  const visit = (command: Command, parents: string[]) => {
    const subs = command.commands.filter((c) => c.name() !== 'help');
    const seen = parents.map((p) => `__fish_seen_subcommand_from ${p}`);
    const noSibling = subs.length > 0 ? `not __fish_seen_subcommand_from ${subs.map((c) => c.name()).join(' ')}` : undefined;
    for (const sub of subs) {
      const condition = parents.length === 0 ? '__fish_use_subcommand' : [...seen, noSibling].join('; and ');
      lines.push(`complete -c paylink -n ${fishQuote(condition)} -a ${sub.name()} -d ${fishQuote(sub.description())}`);
    }
    if (parents.length > 0) {
      for (const option of command.options) lines.push(fishOption(option, seen.join('; and ')));
      if (command.name() === 'completion') lines.push(`complete -c paylink -n ${fishQuote(seen.join('; and '))} -a 'bash zsh fish'`);
    }
    for (const sub of subs) visit(sub, [...parents, sub.name()]);
  };
  visit(program, []);
  return `${lines.join('\n')}\n`;
}

/** `paylink completion <shell>`: the script on stdout, or with `--json` as a string in one document. */
export const completionCommand: Run<typeof spec> = ({ shell }, _flags, ctx) => {
  const script = completionScript(ctx.program, shell);
  if (ctx.ui.options.json) ctx.ui.json({ shell, script });
  else ctx.ui.streams.stdout.write(script);
};
