/** `paylink fixtures load`: seed a sandbox from fixture files. */
import { command, type Later } from '../command-spec.js';

export const fixturesLoad = command({
  name: 'load',
  args: ['<files...>'],
  description: 'Run fixture files against the sandbox and print step name -> id',
  needs: ['connection', 'admin'],
  flagHelp: { adminToken: 'admin token for clock steps on a sandbox not on loopback (or PAYLINK_ADMIN_TOKEN)' },
  examples: ['paylink fixtures load fixtures/paid-link.json', 'paylink fixtures load fixtures/*.json --json'],
  run: (): Later => import('./fixtures.js').then((m) => m.fixturesLoad),
});

export const fixtures = command({
  name: 'fixtures',
  description: 'Seed a sandbox from fixture files (docs/fixtures.md)',
  examples: ['paylink fixtures load fixtures/paid-link.json', 'paylink fixtures load fixtures/*.json --json'],
  commands: [fixturesLoad],
});
