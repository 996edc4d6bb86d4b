/** `paylink snapshot save|restore|list|delete`: the whole sandbox state, saved and put back. */
import { command, type Later } from '../command-spec.js';

export const snapshotSave = command({
  name: 'save',
  args: ['<name>'],
  description: 'Save the state now under a name (replaces a snapshot of that name)',
  needs: ['connection'],
  examples: ['paylink fixtures load fixtures/*.json && paylink snapshot save seeded'],
  run: (): Later => import('./snapshot.js').then((m) => m.snapshotSaveCommand),
});

export const snapshotRestore = command({
  name: 'restore',
  args: ['<name>'],
  description: 'Put the saved state back: everything written since the save is gone',
  needs: ['connection'],
  examples: ['paylink snapshot restore seeded'],
  run: (): Later => import('./snapshot.js').then((m) => m.snapshotRestoreCommand),
});

export const snapshotList = command({
  name: 'list',
  description: 'List the saved snapshots',
  needs: ['connection'],
  examples: ['paylink snapshot list', 'paylink snapshot list --json'],
  run: (): Later => import('./snapshot.js').then((m) => m.snapshotListCommand),
});

export const snapshotDelete = command({
  name: 'delete',
  args: ['<name>'],
  description: 'Delete a saved snapshot',
  needs: ['connection'],
  examples: ['paylink snapshot delete seeded'],
  run: (): Later => import('./snapshot.js').then((m) => m.snapshotDeleteCommand),
});

/** The subcommands read `--admin-token` from here. */
export const snapshot = command({
  name: 'snapshot',
  description: 'Save and restore the whole sandbox state (links, payments, tokens, events, clock, request log)',
  needs: ['admin'],
  examples: ['paylink snapshot save seeded', 'paylink snapshot restore seeded', 'paylink snapshot list', 'paylink snapshot delete seeded'],
  commands: [snapshotSave, snapshotRestore, snapshotList, snapshotDelete],
});
