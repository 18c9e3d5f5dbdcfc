/**
 * Serves the protected-resource metadata document (RFC 9728 §3) at its
 * well-known paths. The document is public and made for browser clients
 * too, so it is readable from any origin (CORS `*`, no credentials) and
 * answers the preflight a browser sends before a GET with custom headers.
 */
import type { ResolvedAuthorization } from "./authorization.js";
import type { HttpReply } from "./exchange.js";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, HEAD, OPTIONS",
  // Browsers send MCP-Protocol-Version on discovery requests; none of them carries a credential.
  "access-control-allow-headers": "*",
  "access-control-max-age": "86400",
} as const;

/** The path of a request URL (`""` when it does not parse). @internal */
export function pathOf(url: string): string {
  try {
    return new URL(url, "http://localhost").pathname;
  } catch {
    return "";
  }
}

/**
 * True when `path` is where this endpoint's metadata document is served.
 * @internal
 */
export function isResourceMetadataPath(auth: ResolvedAuthorization | undefined, path: string): boolean {
  return auth !== undefined && auth.metadataBody !== undefined && auth.metadataPaths.has(path);
}

/**
 * Answers a request for the metadata document: `200` JSON on GET/HEAD,
 * `204` on a CORS preflight, `405` for any other method.
 * @internal
 */
export function serveResourceMetadata(auth: ResolvedAuthorization, method: string, reply: HttpReply): void {
  if (method === "GET" || method === "HEAD") {
    reply.send(200, { ...CORS, "content-type": "application/json", "cache-control": "public, max-age=300" }, method === "HEAD" ? "" : auth.metadataBody!);
    return;
  }
  if (method === "OPTIONS") {
    reply.send(204, { ...CORS }, "");
    return;
  }
  reply.send(
    405,
    { ...CORS, allow: "GET, HEAD, OPTIONS", "content-type": "application/json" },
    JSON.stringify({ error: "invalid_request", error_description: `Method ${method} is not allowed: GET the protected-resource metadata document.` }),
  );
}
