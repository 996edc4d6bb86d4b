/**
 * The mark paylink's own tools put on their requests (`x-paylink-client: <tool>`), so the sandbox can tell
 * them from a merchant's code: API faults spare them unless a rule asks otherwise (docs/faults.md).
 */
import type { IncomingHttpHeaders } from 'node:http';

/** The header every request of paylink's own tools carries. */
export const CLIENT_MARK_HEADER = 'x-paylink-client';

/** The tools that mark their requests. */
export const CLIENT_TOOLS = ['cli', 'fixtures', 'dashboard', 'listen', 'trigger', 'testing'] as const;
export type ClientTool = (typeof CLIENT_TOOLS)[number];

/** The tool a request's mark names, or undefined when it carries none (or an unknown one). */
export function readClientMark(headers: IncomingHttpHeaders): ClientTool | undefined {
  const value = headers[CLIENT_MARK_HEADER];
  const text = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  return (CLIENT_TOOLS as readonly string[]).includes(text ?? '') ? (text as ClientTool) : undefined;
}
