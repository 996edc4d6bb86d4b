/** `paylink completion <shell>`: a completion script built from the program itself. */
import { command, type Later } from '../command-spec.js';

export const completion = command({
  name: 'completion',
  args: ['<shell>'],
  description: 'Print a shell completion script (bash, zsh or fish)',
  examples: [
    'paylink completion bash > ~/.local/share/bash-completion/completions/paylink',
    'eval "$(paylink completion zsh)"',
    'paylink completion fish > ~/.config/fish/completions/paylink.fish',
  ],
  // Writes a script from the program's own declarations: no sandbox.
  needs: [],
  run: (): Later => import('./completion.js').then((m) => m.completionCommand),
});
