/**
 * `paylink completion bash|zsh`: prints a completion script built from the program's own commands and
 * options, so it never drifts from the CLI. zsh uses the same function through bashcompinit.
 */
import type { Command, Option } from 'commander';
import { OUTCOME_NAMES } from '../../sandbox/domain/test-cards.js';
import { UsageError } from '../errors.js';

/** Values offered after an option that takes one. */
const VALUES: Record<string, string> = {
  '--outcome': OUTCOME_NAMES.join(' '),
  '--tokenize': 'false inquire true',
  '--brand': 'visa mastercard amex maestro discover diners jcb bancontact 1010 1020 1030',
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
  if (shell !== 'bash' && shell !== 'zsh') throw new UsageError(`completion: expected bash or zsh, got "${shell}".`);
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
    completion) COMPREPLY=( $(compgen -W "bash zsh" -- "$cur") ); return 0 ;;
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
  if (shell === 'bash') return `# paylink bash completion. Install: paylink completion bash > ~/.local/share/bash-completion/completions/paylink\n${body}\ncomplete -F _paylink paylink\n`;
  return `#compdef paylink\n# paylink zsh completion. Install: paylink completion zsh > "\${fpath[1]}/_paylink" (or eval "$(paylink completion zsh)" in ~/.zshrc)\nautoload -U +X bashcompinit && bashcompinit\n${body}\ncomplete -F _paylink paylink\n`;
}
