// One sandbox for the whole vitest run: started before any test file, its URL and secret handed to the
// files with provide/inject (an app under test would read them from its configuration).
import type { TestProject } from 'vitest/node';
import { createTestSandbox, type TestSandbox } from 'paylink/testing';

declare module 'vitest' {
  export interface ProvidedContext {
    paymentApiUrl: string;
    webhookSecret: string;
  }
}

let sandbox: TestSandbox;

export async function setup(project: TestProject): Promise<void> {
  sandbox = await createTestSandbox({ businessId: 'suite' });
  project.provide('paymentApiUrl', sandbox.url);
  project.provide('webhookSecret', sandbox.webhookSecret);
}

export async function teardown(): Promise<void> {
  await sandbox.close();
}
