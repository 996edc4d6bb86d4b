import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// Handlers (api/, web/, admin/) receive a RouteRequest: the services and a few facts of the sandbox, never
// its repositories, write queue or event store (docs/architecture.md). This holds by type, so a handler that
// reaches storage does not compile. Each fixture below is compiled, with the project's compiler options,
// as if it were a file of src/sandbox/api/.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

const HEAD = `import type { RouteRequest } from '../http/router.js';\n`;

const fixtures = {
  services: `${HEAD}export async function ok(req: RouteRequest) {
  const link = await req.services.links.get('b', 'l');
  return { link, now: req.sandbox.clock.now(), base: req.sandbox.baseUrl, again: req.sandbox.services.payments.get('b', 'p') };
}\n`,
  repository: `${HEAD}export function bad(req: RouteRequest) {
  return req.sandbox.payments.get('p');
}\n`,
  writeQueue: `${HEAD}export async function bad(req: RouteRequest) {
  await req.sandbox.store.write(() => undefined);
}\n`,
  destructured: `${HEAD}export function bad({ sandbox }: RouteRequest) {
  const { links } = sandbox;
  return links;
}\n`,
  eventStore: `${HEAD}export function bad(req: RouteRequest) {
  return req.sandbox.eventStore;
}\n`,
  eventService: `${HEAD}export function bad(req: RouteRequest) {
  return req.sandbox.events.secret;
}\n`,
  faultRules: `${HEAD}export function bad(req: RouteRequest) {
  return req.sandbox.faults.list();
}\n`,
  meta: `${HEAD}export function bad(req: RouteRequest) {
  return req.sandbox.meta.get('clock');
}\n`,
};

const fileOf = (name: string): string => join(ROOT, 'src', 'sandbox', 'api', `__handler-fixture-${name}__.ts`);
let errors: Record<string, string[]>;

// One program for every fixture: type-checking the sandbox once, not once a fixture.
beforeAll(() => {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), (p) => ts.sys.readFile(p));
  const options = { ...ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options, noEmit: true, declaration: false, sourceMap: false };
  const texts = new Map(Object.entries(fixtures).map(([name, text]) => [fileOf(name), text]));
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => texts.has(name) || fileExists.call(host, name);
  host.readFile = (name) => texts.get(name) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const text = texts.get(name);
    return text !== undefined ? ts.createSourceFile(name, text, language, true) : getSourceFile.call(host, name, language, onError, create);
  };
  const program = ts.createProgram({ rootNames: [...texts.keys()], options, host });
  errors = {};
  for (const name of Object.keys(fixtures)) {
    // The fixture's own errors (the rest of the project is `npm run typecheck`'s business).
    errors[name] = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(fileOf(name)))
      .filter((d) => d.category === ts.DiagnosticCategory.Error)
      .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
}, 120_000);

describe('a handler reaches storage only through services, or it does not compile', () => {
  it('compiles a handler that calls services and reads the clock and base URL', () => {
    expect(errors.services).toEqual([]);
  });

  it.each([
    ['a repository (sandbox.payments)', 'repository', 'payments'],
    ['the write queue (sandbox.store.write)', 'writeQueue', 'store'],
    ['a destructured repository ({ links } = sandbox)', 'destructured', 'links'],
    ['the event store (sandbox.eventStore)', 'eventStore', 'eventStore'],
    ['the event service (sandbox.events)', 'eventService', 'events'],
    ['the fault rules (sandbox.faults)', 'faultRules', 'faults'],
    ['the meta table (sandbox.meta)', 'meta', 'meta'],
  ])('refuses a handler that reaches %s', (_what, fixture, member) => {
    const found = errors[fixture]!;
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(new RegExp(`^TS2339: Property '${member}' does not exist on type 'SandboxView'`));
  });
});
