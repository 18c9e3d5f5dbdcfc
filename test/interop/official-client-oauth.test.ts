// The official 2.4.0 client's OAuth flow, used the way its users do (an
// OAuthClientProvider, UnauthorizedError, finishAuth), against our server
// protected with `authorization` + jwtVerifier, with oidc-provider as the
// authorization server: discovery from our 401 challenge and metadata,
// dynamic registration, authorization code + PKCE + resource, then a tool call.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  Client as OfficialClient,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import type { HttpServerHandle } from "mcp-roundtrip/node";
import type { JwtRejected } from "mcp-roundtrip/ext/jwt";
import { serveProtected } from "../../examples/authorization/protected-server.js";
import { freePort, startAuthorizationServer, type LocalAuthorizationServer } from "./authorization-server.js";

const REDIRECT = "http://127.0.0.1:9/callback";
const OTHER_RESOURCE = "http://127.0.0.1:9/other-mcp";

/** An in-memory provider, as the official SDK's examples write one. */
class MemoryOAuthProvider implements OAuthClientProvider {
  client: StoredOAuthClientInformation | undefined;
  stored: StoredOAuthTokens | undefined;
  verifier = "";
  authorizationUrl: URL | undefined;
  discovery: OAuthDiscoveryState | undefined;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "official-interop",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

describe("the official 2.4.0 client's OAuth flow against examples/authorization (oidc-provider)", () => {
  let as: LocalAuthorizationServer;
  let http: HttpServerHandle;
  let resource: string;
  const rejections: unknown[] = [];

  beforeAll(async () => {
    const port = await freePort();
    resource = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer({
      resource,
      otherResources: [OTHER_RESOURCE],
      scopes: ["files:read", "files:write", "files:admin"],
      // A pre-registered client may ask for any scope; a dynamically registered one is held to the
      // scope it registered with (the official client registers with the first challenge's scope).
      clients: [
        {
          client_id: "pre-registered",
          token_endpoint_auth_method: "none",
          redirect_uris: [REDIRECT],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
        },
      ],
    });
    http = await serveProtected({ port, resource, issuer: as.issuer, onError: (error) => rejections.push(error) });
  }, 30_000);
  afterAll(async () => {
    await http?.close();
    await as?.close();
  });

  it("authorizes through discovery, registration and PKCE, then calls a tool", async () => {
    const provider = new MemoryOAuthProvider();
    const client = new OfficialClient({ name: "official-oauth-interop", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    // The client found the AS through our challenge and metadata, and registered itself.
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin).toBe(as.issuer);
    expect(authorizationUrl.searchParams.get("resource")).toBe(resource);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("scope")!.split(" ")).toContain("files:read");
    expect(provider.client?.client_id).toBeTruthy();

    const callback = await as.authorize(authorizationUrl);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    await transport.finishAuth(callback.searchParams);
    expect(provider.stored?.access_token).toBeTruthy();

    const connected = new OfficialClient({ name: "official-oauth-interop", version: "1.0.0" });
    await connected.connect(new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider }));
    const result = await connected.callTool({ name: "whoami", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: `alice (issuer ${as.issuer})` }]);
    // files:read was granted; delete needs files:write: a 403 challenge, which the official client reports.

    await connected.close();
    expect(as.requests.filter((line) => line === "POST /reg")).toHaveLength(1);
    expect(rejections).toEqual([]);
  });

  it("steps up on our 403 insufficient_scope challenge (a pre-registered client)", async () => {
    const provider = new MemoryOAuthProvider();
    provider.client = { client_id: "pre-registered", issuer: as.issuer };
    const first = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await expect(new OfficialClient({ name: "step-up", version: "1.0.0" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    await first.finishAuth((await as.authorize(provider.authorizationUrl!)).searchParams);

    const client = new OfficialClient({ name: "step-up", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(http.url), { authProvider: provider });
    await client.connect(transport);
    // files:read was granted; delete needs files:write. Our challenge names it, and the client
    // authorizes again for the union of the scopes.
    provider.authorizationUrl = undefined;
    await expect(client.callTool({ name: "delete", arguments: { name: "readme.txt" } })).rejects.toBeInstanceOf(UnauthorizedError);
    const stepUp = provider.authorizationUrl!;
    expect(stepUp.searchParams.get("scope")!.split(" ")).toEqual(expect.arrayContaining(["files:read", "files:write"]));
    await transport.finishAuth((await as.authorize(stepUp)).searchParams);
    const deleted = await client.callTool({ name: "delete", arguments: { name: "readme.txt" } });
    expect(deleted.content).toEqual([{ type: "text", text: "deleted" }]);
    await client.close();
  });

  it("refuses a token the same authorization server issued for another resource", async () => {
    const foreign = await as.issueToken(OTHER_RESOURCE, "files:read");
    const own = await as.issueToken(resource, "files:read");
    const call = (token: string) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2026-07-28",
          "mcp-method": "tools/call",
          "mcp-name": "whoami",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "whoami",
            arguments: {},
            _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} },
          },
        }),
      });
    rejections.length = 0;
    const refused = await call(foreign);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(rejections).toHaveLength(1);
    expect((rejections[0] as JwtRejected).reason).toBe("wrong_audience");
    expect(String(rejections[0])).not.toContain(foreign);
    expect((await call(own)).status).toBe(200);
  });
});
