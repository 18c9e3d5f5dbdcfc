/**
 * Where an authorization server publishes its signing keys: its metadata
 * document (RFC 8414 §3.1, and OpenID Connect Discovery 1.0 §4), tried in
 * the order MCP 2026-07-28 "Authorization Server Metadata Discovery" gives,
 * and validated: the document's `issuer` must be the issuer asked for
 * (RFC 8414 §3.3), and its `jwks_uri` an https URL.
 */
import { JwtRejected } from "./errors.js";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Checks that `value` is an https URL (http only on a loopback host).
 * @throws {TypeError} naming `what` and what it takes.
 * @internal
 */
export function secureUrl(value: unknown, what: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || !(url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK.has(url.hostname)))) {
    throw new TypeError(`${what} must be an https URL (http only on a loopback host), got ${JSON.stringify(value)}.`);
  }
  return url;
}

/** The metadata URLs of `issuer`, in the order the MCP spec gives. @internal */
function metadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/+$/, "");
  if (path === "") {
    return [`${url.origin}/.well-known/oauth-authorization-server`, `${url.origin}/.well-known/openid-configuration`];
  }
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/**
 * Finds the `jwks_uri` of `issuer` from its metadata.
 * @throws {JwtRejected} (`jwks_unavailable`) when no document answers, or one is malformed or names another issuer.
 * @internal
 */
export async function discoverJwksUri(issuer: string, fetchImpl: typeof fetch, timeoutMs: number): Promise<URL> {
  const problems: string[] = [];
  for (const candidate of metadataUrls(issuer)) {
    let response: Response;
    try {
      response = await fetchImpl(candidate, { headers: { accept: "application/json" }, redirect: "error", signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      problems.push(`${candidate}: ${(error as Error)?.message ?? String(error)}`);
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      problems.push(`${candidate}: HTTP ${response.status}`);
      continue;
    }
    let document: unknown;
    try {
      document = await response.json();
    } catch {
      throw new JwtRejected("jwks_unavailable", `the metadata at ${candidate} is not JSON`);
    }
    const fields = (typeof document === "object" && document !== null ? document : {}) as { issuer?: unknown; jwks_uri?: unknown };
    if (fields.issuer !== issuer) {
      throw new JwtRejected(
        "jwks_unavailable",
        `the metadata at ${candidate} names issuer ${JSON.stringify(fields.issuer)}, not ${JSON.stringify(issuer)} (RFC 8414 §3.3); check the issuer option`,
      );
    }
    try {
      return secureUrl(fields.jwks_uri, `jwks_uri in ${candidate}`);
    } catch (error) {
      throw new JwtRejected("jwks_unavailable", (error as Error).message);
    }
  }
  throw new JwtRejected("jwks_unavailable", `no authorization-server metadata found for ${issuer} (${problems.join("; ")}); pass jwksUri to skip discovery`);
}
