/**
 * How the OAuth client talks HTTP: one `fetch`, the rule on plain http
 * (loopback only, unless allowed), JSON documents read with a size bound,
 * and the options oauth4webapi takes for the same.
 *
 * @internal
 */
import * as oauth from "oauth4webapi";
import { OAuthError } from "./errors.js";

/** The largest metadata document read, in bytes. */
const MAX_DOCUMENT_BYTES = 256 * 1024;

/** The HTTP side of one OAuth client. @internal */
export interface OAuthHttp {
  readonly fetch: typeof fetch;
  /** Whether plain http is allowed to any host, not only loopback ones. */
  readonly allowInsecureHttp: boolean;
  /** Progress lines; never a credential. */
  readonly log: (line: string) => void;
}

/** True for a host name or address that is this machine (RFC 8252 §7.3, RFC 6761 §6.3). @internal */
export function isLoopback(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * Parses `value` as an http(s) URL the client may call: https, or http to a
 * loopback host (or any host when `allowInsecureHttp`).
 *
 * @param what - names the value in the error ("the token endpoint").
 * @throws {OAuthError} `invalid_metadata` for a value that is not an http(s) URL, `insecure_url` for plain http elsewhere.
 * @internal
 */
export function checkUrl(value: unknown, what: string, http: OAuthHttp): URL {
  let url: URL;
  try {
    if (typeof value !== "string") throw new TypeError();
    url = new URL(value);
  } catch {
    throw new OAuthError("invalid_metadata", `${what} is not a URL (got ${describe(value)}).`);
  }
  if (url.protocol === "https:") return url;
  if (url.protocol !== "http:") throw new OAuthError("invalid_metadata", `${what} must be an https URL, got a ${url.protocol} one.`);
  if (isLoopback(url) || http.allowInsecureHttp) return url;
  throw new OAuthError(
    "insecure_url",
    `${what} (${url.origin}) uses plain http on a non-loopback host: OAuth needs https there. ` + "Pass allowInsecureHttp: true only for a test setup.",
  );
}

/** The options every oauth4webapi request of this client takes, for a request to `url`. @internal */
export function libraryOptions(http: OAuthHttp, url: URL): { [oauth.customFetch]: typeof fetch; [oauth.allowInsecureRequests]: boolean } {
  return { [oauth.customFetch]: http.fetch, [oauth.allowInsecureRequests]: url.protocol === "http:" };
}

/** What a GET of a JSON document gave: its status, and the parsed body when the status was 200. @internal */
export interface JsonDocument {
  status: number;
  body?: unknown;
}

/**
 * GETs a JSON document (metadata), without following redirects.
 *
 * @throws {OAuthError} `discovery_failed` when the server cannot be reached, `invalid_metadata` for a 200 that is not JSON or too large.
 * @internal
 */
export async function getJson(url: URL, what: string, http: OAuthHttp): Promise<JsonDocument> {
  let response: Response;
  try {
    response = await http.fetch(url.href, { method: "GET", headers: { accept: "application/json" }, redirect: "manual" });
  } catch (error) {
    const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    throw new OAuthError("discovery_failed", `Could not fetch ${what} from ${url.href}: ${reason}.`);
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status };
  }
  const text = await response.text();
  if (text.length > MAX_DOCUMENT_BYTES) throw new OAuthError("invalid_metadata", `${what} at ${url.href} is larger than ${MAX_DOCUMENT_BYTES} bytes.`);
  try {
    return { status: 200, body: JSON.parse(text) };
  } catch {
    throw new OAuthError("invalid_metadata", `${what} at ${url.href} is not JSON: fix the document the server publishes there.`);
  }
}

/** A short, credential-free description of a value of the wrong type. @internal */
export function describe(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
