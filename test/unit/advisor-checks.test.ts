/**
 * The advisor's checks are laid out one module per check (docs/advisor.md "Adding a check"): each file under
 * src/sandbox/domain/advisor/checks/ exports its meta and one function, is listed in the registry, and has
 * its section in docs/advisor.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS, SEVERITIES } from '../../src/sandbox/domain/advisor.js';

const CHECKS_DIR = fileURLToPath(new URL('../../src/sandbox/domain/advisor/checks/', import.meta.url));
const DOC = readFileSync(fileURLToPath(new URL('../../docs/advisor.md', import.meta.url)), 'utf8');
const files = readdirSync(CHECKS_DIR).filter((f) => f.endsWith('.ts'));

describe('advisor checks, one module each', () => {
  it.each(files)('%s exports meta named after its file and one check function, and the registry lists it', async (file) => {
    const module = (await import(`${CHECKS_DIR}${file}`)) as Record<string, unknown>;
    const meta = module.meta as { id: string; title: string; severity: string; docs: string };
    expect(meta.id).toBe(file.replace(/\.ts$/, ''));
    expect(meta.title.length).toBeGreaterThan(0);
    expect(SEVERITIES).toContain(meta.severity);
    expect(meta.docs).toBe(`docs/advisor.md#${meta.id}`);
    expect(typeof module.check).toBe('function');
    expect(CHECKS.map((c) => c.meta)).toContain(meta);
  });

  it('lists no check without its file, and documents each one', () => {
    expect(CHECKS.map((c) => `${c.meta.id}.ts`).sort()).toEqual([...files].sort());
    for (const { meta } of CHECKS) expect(DOC).toContain(`\n### ${meta.id}\n`);
  });
});
