/**
 * The request mark (docs/advisor.md, "Whose traffic is judged"): every request paylink's own tools send
 * carries `x-paylink-client: <tool>`, so the sandbox can tell the merchant's code from paylink acting in its
 * place. Pure data and parsing, shared by the CLI (which sends the mark) and the sandbox (which reads it
 * through http/client-mark.ts).
 */

/** The header that names which of paylink's tools sent a request. */
export const CLIENT_MARK_HEADER = 'x-paylink-client';

/** paylink's tools that mark their requests. */
export const CLIENT_TOOLS = ['cli', 'fixtures', 'dashboard', 'listen', 'trigger', 'testing'] as const;

/** One of paylink's tools: `cli` (commands), `fixtures` (the fixture runner), `dashboard`, `listen`, `trigger`, `testing` (paylink/testing). */
export type ClientTool = (typeof CLIENT_TOOLS)[number];

/** True when `value` names one of paylink's tools. */
export function isClientTool(value: unknown): value is ClientTool {
  return typeof value === 'string' && (CLIENT_TOOLS as readonly string[]).includes(value);
}

/**
 * The tool a header value names: trimmed, any letter case; undefined when absent or not one of
 * {@link CLIENT_TOOLS} (an unknown value is not a mark: that request is judged as the merchant's). A
 * repeated header counts only when every value names the same tool.
 */
export function parseClientMark(value: string | readonly string[] | null | undefined): ClientTool | undefined {
  if (value === null || value === undefined) return undefined;
  const values = typeof value === 'string' ? value.split(',') : value.flatMap((v) => v.split(','));
  const tools = new Set(values.map((v) => v.trim().toLowerCase()));
  if (tools.size !== 1) return undefined;
  const [tool] = tools;
  return isClientTool(tool) ? tool : undefined;
}
