// Our OAuth client (mcp-roundtrip/ext/oauth) against the official SDK 2.4.0's
// server-side auth, as its users assemble it: oauthMetadataResponse for the
// RFC 9728 document, requireBearerAuth with a jose-based OAuthTokenVerifier
// and expectedResource, createMcpHandler behind it; oidc-provider is the
// authorization server. Our client has to discover the AS from their
// challenge, register, authorize with PKCE and resource, and call a tool.
import { createServer, type Server as NodeServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRemoteJWKSet, jwtVerify } from "jose";
import {
  McpServer as OfficialMcpServer,
  OAuthError as OfficialOAuthError,
  OAuthErrorCode,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo as OfficialAuthInfo,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { OAuthClient } from "mcp-roundtrip/ext/oauth";
import { freePort, startAuthorizationServer, type LocalAuthorizationServer } from "./authorization-server.js";
import { bridge } from "./peers.js";

describe("our OAuth client against the official SDK 2.4.0 server-side auth (oidc-provider)", () => {
  let as: LocalAuthorizationServer;
  let http: NodeServer;
  let url: string;
  let closeHandler: () => Promise<void>;
  const seenAuth: OfficialAuthInfo[] = [];

  beforeAll(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}/mcp`;
    as = await startAuthorizationServer({ resource: url, scopes: ["mcp:tools"] });
    const asMetadata = await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json();

    // A verifier the way the official docs leave it to the user: jose against the AS's JWKS.
    const keys = createRemoteJWKSet(new URL(asMetadata.jwks_uri));
    const verifier: OAuthTokenVerifier = {
      async verifyAccessToken(token) {
        try {
          const { payload } = await jwtVerify(token, keys, { issuer: as.issuer });
          const audience = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
          return {
            token,
            clientId: String(payload.client_id ?? ""),
            scopes: typeof payload.scope === "string" ? payload.scope.split(" ") : [],
            expiresAt: payload.exp,
            resource: audience ? new URL(audience) : undefined,
            extra: { sub: payload.sub },
          };
        } catch {
          throw new OfficialOAuthError(OAuthErrorCode.InvalidToken, "invalid token");
        }
      },
    };
    const metadataOptions = {
      oauthMetadata: asMetadata,
      resourceServerUrl: new URL(url),
      scopesSupported: ["mcp:tools"],
      dangerouslyAllowInsecureIssuerUrl: true,
    };
    const gate = requireBearerAuth({
      verifier,
      requiredScopes: ["mcp:tools"],
      resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(url)),
      expectedResource: new URL(url),
    });
    const handler = createMcpHandler((context) => {
      const official = new OfficialMcpServer({ name: "official-protected", version: "2.4.0" });
      official.registerTool("whoami", { description: "Who the token is for" }, async () => ({
        content: [{ type: "text", text: `hello ${String(context?.authInfo?.extra?.sub)}` }],
      }));
      return official;
    });
    closeHandler = () => handler.close();
    http = createServer(
      bridge(async (request) => {
        const metadata = oauthMetadataResponse(request, metadataOptions);
        if (metadata) return metadata;
        const auth = await gate(request);
        if (auth instanceof Response) return auth;
        seenAuth.push(auth);
        return handler.fetch(request, { authInfo: auth });
      }),
    );
    await new Promise<void>((resolve) => http.listen(port, "127.0.0.1", resolve));
  }, 30_000);
  afterAll(async () => {
    await closeHandler?.();
    await new Promise<void>((resolve) => {
      http?.closeAllConnections();
      http?.close(() => resolve());
    });
    await as?.close();
  });

  it("discovers, registers, authorizes with PKCE and resource, and calls a tool", async () => {
    const asked: URL[] = [];
    const logs: string[] = [];
    const auth = new OAuthClient({
      redirectUrl: "http://127.0.0.1:9/callback",
      authorize: async (authorizationUrl) => {
        asked.push(new URL(authorizationUrl));
        return as.authorize(authorizationUrl);
      },
      registration: { client_name: "mcp-roundtrip-interop" },
      onLog: (line) => logs.push(line),
    });
    const client = await Client.connect(new StreamableHttpClientTransport(url, { auth }));
    try {
      const result = await client.callTool("whoami", {});
      expect(result.content).toEqual([{ type: "text", text: "hello alice" }]);
    } finally {
      await client.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.get("resource")).toBe(url);
    expect(asked[0]!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(asked[0]!.searchParams.get("scope")!.split(" ")).toContain("mcp:tools");
    expect(as.requests).toContain("POST /reg");
    expect(seenAuth.at(-1)!.resource?.href).toBe(url);
    // The progress lines never carry a token or a code.
    const token = seenAuth.at(-1)!.token;
    for (const line of logs) expect(line).not.toContain(token);
  });
});
