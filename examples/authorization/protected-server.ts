// A protected MCP server: the HTTP endpoint is an OAuth 2.1 resource server
// (metadata document, 401/403 challenges), JWT access tokens are checked
// against the authorization server's keys, and each tool names the scopes
// it needs. test/interop/official-client-oauth.test.ts runs it against the
// official client and a real authorization server.
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { jwtVerifier } from "mcp-roundtrip/ext/jwt";
import { McpServer, requireScopes } from "mcp-roundtrip/server";

/** Where the server listens and whose tokens it accepts. */
export interface ProtectedServerOptions {
  /** The public URL clients use, e.g. `https://files.example.com/mcp`; tokens must be issued for it. */
  resource: string;
  /** The authorization server's issuer identifier. */
  issuer: string;
  /** Port to listen on (its path is the resource's). */
  port: number;
  /** Where refused tokens are reported (the reason, never the token). */
  onError?: (error: unknown) => void;
}

/** A file server whose tools need `files:read`, `files:write`, or `files:admin` for a forced delete. */
export function createFileServer(): McpServer {
  const files = new Map<string, string>([["readme.txt", "hello"]]);
  const server = new McpServer({ name: "protected-files", version: "1.0.0" });
  server.tool("whoami", { scopes: ["files:read"] }, (_args, ctx) => ({
    content: [{ type: "text", text: `${ctx.authInfo?.subject} (issuer ${ctx.authInfo?.issuer})` }],
  }));
  server.tool("read", { scopes: ["files:read"], inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] } }, ({ name }) => ({
    content: [{ type: "text", text: files.get(String(name)) ?? "(no such file)" }],
  }));
  server.tool(
    "delete",
    { scopes: ["files:write"], inputSchema: { type: "object", properties: { name: { type: "string" }, force: { type: "boolean" } }, required: ["name"] } },
    ({ name, force }, ctx) => {
      if (force === true) requireScopes(ctx, ["files:admin"], "a forced delete");
      return { content: [{ type: "text", text: files.delete(String(name)) ? "deleted" : "(no such file)" }] };
    },
  );
  return server;
}

/** Serves {@link createFileServer} as a protected resource of `issuer`. */
export function serveProtected(options: ProtectedServerOptions): Promise<HttpServerHandle> {
  return serveHttp(createFileServer(), {
    port: options.port,
    path: new URL(options.resource).pathname,
    authorization: {
      resource: options.resource,
      authorizationServers: [options.issuer],
      scopesSupported: ["files:read"],
      resourceName: "Protected files",
      verify: jwtVerifier({ issuer: options.issuer, impliedScopes: { "files:admin": ["files:write"], "files:write": ["files:read"] } }),
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
