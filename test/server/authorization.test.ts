// Per-tool scopes and principal binding, end to end: McpServer behind the
// HTTP handler's `authorization` option with jwtVerifier, called by our
// client with real signed JWTs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { Client, McpError, isInputRequired, HttpTransportError, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { jwtVerifier } from "mcp-roundtrip/ext/jwt";
import { McpServer, RequestStateSecurity, elicit, requireScopes } from "mcp-roundtrip/server";

const ISSUER = "https://auth.example.com";
const RESOURCE = "http://127.0.0.1/mcp";

let key: CryptoKey;
let jwk: JWK;
let http: HttpServerHandle;
const logged: unknown[] = [];
const rejections: string[] = [];
const ran: string[] = [];

function tokenFor(subject: string, scope: string): Promise<string> {
  return new SignJWT({ scope, client_id: "app" })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(ISSUER)
    .setAudience(RESOURCE)
    .setSubject(subject)
    .setExpirationTime("5m")
    .sign(key);
}

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  key = pair.privateKey;
  jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256" };
  const server = new McpServer(
    { name: "files", version: "1.0.0" },
    {
      requestStateSecurity: new RequestStateSecurity({
        keys: ["authorization-test-secret-0123456789ab"],
        audience: "files",
        logger: { warn: (_message, rejection) => rejections.push(rejection.reason) },
      }),
      logger: { warn() {}, error() {} },
    },
  );
  server.tool("read", { scopes: ["files:read"] }, () => {
    ran.push("read");
    return { content: [{ type: "text", text: "contents" }] };
  });
  server.tool("write", { scopes: ["files:read", "files:write"] }, () => {
    ran.push("write");
    return { content: [{ type: "text", text: "written" }] };
  });
  server.tool("purge", {}, (_args, ctx) => {
    requireScopes(ctx, ["files:admin"], "a purge");
    ran.push("purge");
    return { content: [{ type: "text", text: "purged" }] };
  });
  server.tool(
    "confirm-delete",
    {
      scopes: ["files:write"],
      needs: (need) => need.add("ok", () => elicit({ message: "Delete?", schema: { type: "object", properties: { ok: { type: "boolean" } } } })),
    },
    (_args, needs, ctx) => {
      ran.push("confirm-delete");
      return { content: [{ type: "text", text: `deleted for ${ctx.authInfo?.subject} (${needs.ok.action})` }] };
    },
  );
  http = await serveHttp(server, {
    authorization: {
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      scopesSupported: ["files:read"],
      verify: jwtVerifier({ issuer: ISSUER, jwks: { keys: [jwk] } }),
    },
    onError: (error) => logged.push(error),
  });
});
afterAll(() => http.close());

async function connect(token: () => string | Promise<string>) {
  let current = await token();
  const transport = new StreamableHttpClientTransport(http.url, { token: () => current });
  const client = await Client.connect(transport, { onElicit: () => ({ action: "accept", content: { ok: true } }) });
  return { client, setToken: (next: string) => (current = next) };
}

const post = (token: string, name: string) =>
  fetch(http.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": name,
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
  });

describe("per-tool scopes", () => {
  it("runs a tool whose scopes the token carries", async () => {
    const { client } = await connect(() => tokenFor("alice", "files:read"));
    expect((await client.callTool("read", {})).content).toEqual([{ type: "text", text: "contents" }]);
    await client.close();
  });

  it("answers 403 insufficient_scope naming the tool's scopes, before the body runs", async () => {
    ran.length = 0;
    const response = await post(await tokenFor("alice", "files:read"), "write");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="http://127.0.0.1/.well-known/oauth-protected-resource/mcp", scope="files:read files:write", ' +
        'error="insufficient_scope", error_description="The access token lacks a scope this operation needs"',
    );
    const body = await response.json();
    expect(body.error).toMatchObject({ code: -32600, data: { reason: "insufficient_scope", scopes: ["files:read", "files:write"] } });
    expect(body.error.message).toContain("files:write");
    expect(ran).toEqual([]);
  });

  it("refuses a needs-tool before asking anything, and requireScopes inside a body", async () => {
    ran.length = 0;
    const confirm = await post(await tokenFor("alice", "files:read"), "confirm-delete");
    expect(confirm.status).toBe(403);
    expect((await confirm.json()).result).toBeUndefined();
    const purge = await post(await tokenFor("alice", "files:read files:write"), "purge");
    expect(purge.status).toBe(403);
    expect(purge.headers.get("www-authenticate")).toContain('scope="files:admin"');
    expect(ran).toEqual([]);
  });

  it("surfaces the refusal to our client as an error that names the scope", async () => {
    const { client } = await connect(() => tokenFor("alice", "files:read"));
    const error = await client.callTool("write", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpTransportError);
    expect((error as HttpTransportError).status).toBe(403);
    expect((error as HttpTransportError).wwwAuthenticate).toContain('scope="files:read files:write"');
    expect((error as Error).message).toContain("files:write");
    await client.close();
  });

  it("fails closed without a verified token: in memory, a JSON-RPC error naming the scopes", async () => {
    const server = new McpServer({ name: "local", version: "1.0.0" });
    server.tool("write", { scopes: ["files:write"] }, () => ({ content: [{ type: "text", text: "written" }] }));
    const client = await Client.connect(server);
    const error = await client.callTool("write", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32600);
    expect((error as McpError).data).toEqual({ reason: "insufficient_scope", scopes: ["files:write"] });
    expect((error as McpError).message).toMatch(/no verified access token/);
    await client.close();
  });

  it("answers a 2025 session's call the same way: 403 with the challenge", async () => {
    const token = await tokenFor("alice", "files:read");
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const init = await fetch(http.url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "legacy", version: "1" } },
      }),
    });
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    const sessionHeaders = { ...headers, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    await fetch(http.url, { method: "POST", headers: sessionHeaders, body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) });
    const call = await fetch(http.url, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "write", arguments: {} } }),
    });
    expect(call.status).toBe(403);
    expect(call.headers.get("www-authenticate")).toContain('error="insufficient_scope", error_description');
    expect(call.headers.get("www-authenticate")).toContain('scope="files:read files:write"');
    const read = await fetch(http.url, {
      method: "POST",
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "read", arguments: {} } }),
    });
    expect(read.status).toBe(200);
    expect((await read.json()).result.content).toEqual([{ type: "text", text: "contents" }]);
  });

  it("refuses malformed scopes at registration", () => {
    const server = new McpServer({ name: "x", version: "1" });
    expect(() => server.tool("t", { scopes: ["has space"] }, () => ({ content: [] }))).toThrow(/scope tokens/);
  });
});

describe("principal binding", () => {
  it("lets the subject who began a round finish it", async () => {
    const { client } = await connect(() => tokenFor("alice", "files:write"));
    const result = await client.callTool("confirm-delete", {});
    expect(result.content).toEqual([{ type: "text", text: "deleted for alice (accept)" }]);
    await client.close();
  });

  it("refuses another subject's token on the retry with the fixed rejection", async () => {
    ran.length = 0;
    rejections.length = 0;
    const alice = await tokenFor("alice", "files:write");
    const { client, setToken } = await connect(() => alice);
    const round = await client.session.callTool("confirm-delete", {}, { allowInputRequired: true });
    if (!isInputRequired(round)) throw new Error("expected input_required");
    const [key] = Object.keys(round.inputRequests ?? {});
    setToken(await tokenFor("mallory", "files:write"));
    const error = await client.session
      .callTool("confirm-delete", {}, { inputResponses: { [key!]: { action: "accept", content: { ok: true } } }, requestState: round.requestState })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32602);
    expect((error as McpError).message).toBe("Invalid or expired requestState");
    expect((error as McpError).data).toEqual({ reason: "invalid_request_state" });
    expect(ran).toEqual([]);
    expect(rejections).toEqual(["principal_mismatch"]);
    // The same retry with the first subject's token still completes.
    setToken(alice);
    const finished = await client.session.callTool(
      "confirm-delete",
      {},
      {
        inputResponses: { [key!]: { action: "accept", content: { ok: true } } },
        requestState: round.requestState,
      },
    );
    expect(finished).toMatchObject({ content: [{ type: "text", text: "deleted for alice (accept)" }] });
    await client.close();
  });
});
