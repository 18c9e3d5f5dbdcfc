/**
 * The user step of the authorization code grant for command-line tools:
 * a loopback redirect listener (RFC 8252 §7.3) on 127.0.0.1 that receives
 * the authorization server's redirect. Node only (`node:http`).
 *
 * @packageDocumentation
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OAuthError } from "./errors.js";

/** Options of {@link loopbackAuthorization}. */
export interface LoopbackOptions {
  /** The port to listen on (default 0: any free port; register a fixed one if the server needs an exact redirect URI). */
  port?: number;
  /** The callback path (default `/callback`). */
  path?: string;
  /** Shows the authorization URL to the user; default: prints it on stderr. Open a browser here (e.g. with the `open` package). */
  open?: (authorizationUrl: URL) => void | Promise<void>;
  /** How long to wait for the user, in milliseconds (default 5 minutes). */
  timeoutMs?: number;
}

/** A running loopback listener: its redirect URL, the `authorize` callback for `OAuthClient`, and `close()`. */
export interface LoopbackAuthorization {
  /** `http://127.0.0.1:<port><path>`: pass it as `OAuthClient`'s `redirectUrl`. */
  readonly redirectUrl: string;
  /** Shows the URL to the user and resolves with the redirect the browser brings back. */
  authorize(authorizationUrl: URL, options?: { signal?: AbortSignal }): Promise<URL>;
  /** Stops listening; a pending `authorize` rejects. */
  close(): Promise<void>;
}

const PAGE = "<!doctype html><meta charset=utf-8><title>Authorized</title><p>Authorization complete. You can close this tab and return to the application.</p>";

/**
 * Starts a loopback redirect listener on 127.0.0.1.
 *
 * @throws {RangeError} for a port outside 0..65535 or a path not starting with `/`.
 * @example
 * ```ts
 * const loopback = await loopbackAuthorization({ open: (url) => open(url.href) });
 * const auth = new OAuthClient({ redirectUrl: loopback.redirectUrl, authorize: loopback.authorize });
 * // …
 * await loopback.close();
 * ```
 */
export async function loopbackAuthorization(options: LoopbackOptions = {}): Promise<LoopbackAuthorization> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new RangeError(`port must be an integer in 0..65535, got ${String(port)}.`);
  const path = options.path ?? "/callback";
  if (typeof path !== "string" || !path.startsWith("/")) throw new RangeError(`path must start with "/", got ${JSON.stringify(path)}.`);
  const timeoutMs = options.timeoutMs ?? 300_000;
  const show = options.open ?? ((url: URL) => void process.stderr.write(`Open this URL in a browser to authorize:\n  ${url.href}\n`));
  let waiting: { resolve: (url: URL) => void; reject: (error: Error) => void } | undefined;

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", redirectUrl);
    if (request.method !== "GET" || url.pathname !== path) {
      response.writeHead(404, { "content-type": "text/plain" }).end("Not found");
      return;
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }).end(PAGE);
    const pending = waiting;
    waiting = undefined;
    pending?.resolve(url);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const redirectUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;

  return {
    redirectUrl,
    async authorize(authorizationUrl, authorizeOptions = {}) {
      if (!server.listening) throw new OAuthError("interaction_required", "The loopback listener is closed: start a new one with loopbackAuthorization().");
      waiting?.reject(new OAuthError("interaction_required", "A newer authorization replaced this one."));
      const received = new Promise<URL>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting = undefined;
          reject(new OAuthError("interaction_required", `No authorization arrived at ${redirectUrl} within ${Math.round(timeoutMs / 1000)} s: authorize again.`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          authorizeOptions.signal?.removeEventListener("abort", onAbort);
        };
        const onAbort = () => {
          waiting = undefined;
          done();
          reject(authorizeOptions.signal!.reason);
        };
        authorizeOptions.signal?.addEventListener("abort", onAbort, { once: true });
        waiting = {
          resolve: (url) => (done(), resolve(url)),
          reject: (error) => (done(), reject(error)),
        };
      });
      await show(authorizationUrl);
      return received;
    },
    close() {
      waiting?.reject(new OAuthError("interaction_required", "The loopback listener was closed before the authorization arrived."));
      waiting = undefined;
      return new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      });
    },
  };
}
