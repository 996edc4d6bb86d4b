/**
 * `paylink sandbox --tunnel`: a public URL through listhen's tunnel (untun, which runs cloudflared). It
 * needs the network (and downloads cloudflared on first use); where that is impossible it fails within a
 * bounded time with a message, and the local sandbox keeps serving.
 */
import { realTimers, type TimerHandle, type Timers } from '../domain/timers.js';

export interface OpenTunnel {
  /** The public https URL. */
  url: string;
  close(): Promise<void>;
}

export interface TunnelOptions {
  /**
   * Give up after this long.
   * @default 10000, or `PAYLINK_TUNNEL_TIMEOUT_MS`
   */
  timeoutMs?: number;
  /** Whose time the timeout runs on (a test moves `ManualTimers` instead of waiting). @default realTimers */
  timers?: Timers;
}

/** Opens a tunnel to `localUrl`; throws an Error whose message says why none could be opened. */
export async function openTunnel(localUrl: string, options: TunnelOptions = {}): Promise<OpenTunnel> {
  const fromEnv = Number(process.env.PAYLINK_TUNNEL_TIMEOUT_MS);
  const timeoutMs = options.timeoutMs ?? (Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 10_000);
  const timers = options.timers ?? realTimers;
  let timer: TimerHandle | undefined;
  let timedOut = false;

  const attempt = (async () => {
    const { startTunnel } = await import('untun');
    // --tunnel is the user's explicit request for cloudflared, so its notice is taken as accepted rather
    // than prompting (a prompt would hang a non-interactive start).
    const tunnel = await startTunnel({ url: localUrl, acceptCloudflareNotice: true });
    if (!tunnel) throw new Error('the tunnel was not set up');
    const url = await tunnel.getURL();
    if (timedOut) {
      // Too late: nobody is waiting for it any more, so it must not stay open.
      await tunnel.close().catch(() => undefined);
      throw new Error('the tunnel opened after the timeout and was closed');
    }
    return { url: url.replace(/\/+$/, ''), close: () => tunnel.close() };
  })();

  const timeout = new Promise<never>((_, reject) => {
    timer = timers
      .setTimeout(() => {
        timedOut = true;
        reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs)
      .unref();
  });
  attempt.catch(() => undefined);
  try {
    return await Promise.race([attempt, timeout]);
  } catch (error) {
    throw new Error(
      `could not open a public tunnel (${(error as Error).message}). It needs network access to download and run cloudflared. The sandbox keeps serving locally; use --public-url with your own tunnel or reverse proxy instead.`,
    );
  } finally {
    timers.clearTimeout(timer);
  }
}
