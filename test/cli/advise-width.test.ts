/**
 * `paylink advise` fits the terminal (issue 23, item 8): on a real 120-column terminal no line is wider
 * than the terminal, so no row wraps; the long "needs data: ..." statuses wrap inside their column.
 */
import { describe, expect, it } from 'vitest';
import { linkRequest, useSandbox } from '../helpers/sandbox.js';
import { hasScript, runInTty } from '../helpers/tty.js';

const sb = useSandbox();

describe.runIf(hasScript)('paylink advise on a terminal', () => {
  for (const columns of [120, 80]) {
    it(`keeps every line within ${columns} columns`, async () => {
      // Some merchant traffic, so that there are findings and checks that still need data.
      for (let i = 0; i < 3; i++) await sb.post('/gateway/v3/paymentlinks', linkRequest({ businessId: 'shop-1', transaction: { amount: 10 + i } }));
      const run = await runInTty(['advise', '--base-url', sb.url], [], { columns, env: { NO_COLOR: '1' } });
      expect(run.code, run.screen).toBe(0);
      const lines = run.screen.split('\n');
      expect(run.screen).toContain('needs data');
      const wide = lines.filter((line) => line.length > columns);
      expect(wide, run.screen).toEqual([]);
    });
  }
});
