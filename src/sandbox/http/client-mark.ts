/**
 * Reads the request mark (`x-paylink-client: <tool>`) that paylink's own tools send, so the request log can
 * keep it and the advisor can leave paylink's own traffic out of its judgement (docs/advisor.md). Other parts
 * of the sandbox (faults that skip marked requests) use {@link readClientMark} too.
 */
import { CLIENT_MARK_HEADER, parseClientMark, type ClientTool } from '../domain/client-mark.js';

export { CLIENT_MARK_HEADER, CLIENT_TOOLS, isClientTool, type ClientTool } from '../domain/client-mark.js';

/** Request headers as Node gives them (`req.headers`), or anything with `get(name)` (a `Headers`). */
export type HeaderSource = Readonly<Record<string, string | string[] | undefined>> | { get(name: string): string | null };

/** The tool that marked this request, or undefined for a request not sent by one of paylink's tools. */
export function readClientMark(headers: HeaderSource): ClientTool | undefined {
  if (typeof headers.get === 'function') return parseClientMark((headers as { get(name: string): string | null }).get(CLIENT_MARK_HEADER));
  const record = headers as Readonly<Record<string, string | string[] | undefined>>;
  return parseClientMark(record[CLIENT_MARK_HEADER]);
}
