/**
 * The client's half of a 2025-era Streamable HTTP session (2025-11-25
 * basic/transports, "Session Management" and "Protocol Version Header"):
 * the `Mcp-Session-Id` the server assigned with the `InitializeResult`, the
 * version agreed by `initialize` (the `MCP-Protocol-Version` of every later
 * message), and the DELETE that ends the session.
 *
 * @internal
 */
import { eraOfVersion } from "../../../protocol/message.js";
import { SESSION_HEADER } from "../../../protocol/names.js";

/** How long `close()` waits for the server to acknowledge the DELETE. */
const DELETE_TIMEOUT_MS = 2_000;

/** Session ids are visible ASCII only (2025-11-25 transports, "Session Management" 1). */
const SESSION_ID = /^[\x21-\x7e]+$/;

/** @internal */
export class HttpSession {
  /** The server-assigned `Mcp-Session-Id`, sent on every request after `initialize`. */
  id: string | undefined;
  /**
   * The version for `MCP-Protocol-Version` when a message's `_meta` names
   * none: the version `initialize` agreed, once the client fell back.
   */
  version: string | undefined;
  /** True once a 2025-era version was agreed: streams may then be resumed, and the GET stream opened. */
  legacy = false;

  constructor(version: string | undefined) {
    this.agree(version);
  }

  /** Records the agreed version; a handshake-era one turns on the 2025 session behaviour. */
  agree(version: string | undefined): void {
    this.version = version;
    this.legacy = typeof version === "string" && eraOfVersion(version) !== "modern";
  }

  /**
   * Takes the session id from the response to `initialize`.
   *
   * @returns a warning when the server sent an id the spec forbids (it is then ignored).
   */
  adopt(response: Response): string | undefined {
    const id = response.headers.get(SESSION_HEADER);
    if (id === null || id === "") return undefined;
    if (!SESSION_ID.test(id)) {
      return "The server sent an Mcp-Session-Id with characters outside visible ASCII; ignoring it, so the session may not hold.";
    }
    this.id = id;
    return undefined;
  }

  /** Forgets the session (the server lost it): the next `initialize` goes out without an id and starts a new one. */
  forget(): void {
    this.id = undefined;
  }

  /**
   * Ends the session on the server with DELETE ("Session Management" 5),
   * best effort and bounded: a 405 (the server does not let clients end
   * sessions), an error or silence are all fine, since the client is leaving.
   *
   * @param headers - extra and authorization headers to send along.
   */
  async end(fetchImpl: typeof fetch, url: URL, headers: Record<string, string>): Promise<void> {
    const id = this.id;
    if (id === undefined) return;
    this.id = undefined;
    headers[SESSION_HEADER] = id;
    if (this.version !== undefined) headers["mcp-protocol-version"] = this.version;
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), DELETE_TIMEOUT_MS);
    try {
      const response = await fetchImpl(url, { method: "DELETE", headers, signal: controller.signal });
      await response.body?.cancel().catch(() => {});
    } catch {
      // The server is gone or slow; the session will expire on its side.
    } finally {
      clearTimeout(timer);
    }
  }
}
