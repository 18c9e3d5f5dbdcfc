import { describe, expect, it } from "vitest";
import { principalOf, RequestStateSecurity } from "../../runtime/state/index.js";
import type { RequestContext } from "../../runtime/transport/types.js";
import { recordingLogger, rejectionOf, SECRET, vectors } from "./helpers.js";

const call = { method: "tools/call", target: "provision", arguments: {} };
const alice: RequestContext = {
  authInfo: { clientId: "client-123", issuer: "https://as.example", subject: "alice", scopes: [] },
};
const bob: RequestContext = { authInfo: { ...alice.authInfo!, subject: "bob" } };

describe("principalOf", () => {
  it("is the compact JSON triple of the vectors", () => {
    expect(principalOf(alice.authInfo!)).toBe(vectors.principal_claim.principal);
  });
  it("writes null for missing issuer and subject", () => {
    expect(principalOf({ clientId: "c" })).toBe('["c",null,null]');
  });
  it("escapes non-ASCII identifiers as the reference SDK's JSON writer does", () => {
    expect(principalOf({ clientId: "cliënt", subject: "👤" })).toBe('["cli\\u00ebnt",null,"\\ud83d\\udc64"]');
  });
  it("refuses an authInfo without a client id", () => {
    expect(() => principalOf({} as never)).toThrow(TypeError);
  });
});

describe("principal binding through the request context", () => {
  it("binds to the verified token's identity", async () => {
    const security = new RequestStateSecurity({ keys: [SECRET] }, { logger: recordingLogger() });
    const token = await security.mint({ ...call, context: alice, state: "x" });
    await expect(security.verify(token, { ...call, context: alice })).resolves.toBe("x");
    await expect(security.verify(token, { ...call, principal: principalOf(alice.authInfo!) })).resolves.toBe("x");
    await rejectionOf(security.verify(token, { ...call, context: bob }));
    await rejectionOf(security.verify(token, { ...call, context: {} }));
    await rejectionOf(security.verify(token, call));
  });

  it("a verifier that drops the subject mid-exchange changes the principal", async () => {
    const security = new RequestStateSecurity({ keys: [SECRET] }, { logger: recordingLogger() });
    const token = await security.mint({ ...call, context: alice, state: "x" });
    const { subject: _, ...withoutSubject } = alice.authInfo!;
    await rejectionOf(security.verify(token, { ...call, context: { authInfo: withoutSubject } }));
  });

  it("bindPrincipal supplies the principal from the app's own identity signal", async () => {
    const security = new RequestStateSecurity(
      { keys: [SECRET] },
      { bindPrincipal: (context) => context.headers?.get("x-user") ?? undefined, logger: recordingLogger() },
    );
    const as = (user: string): RequestContext => ({ headers: new Headers({ "x-user": user }) });
    expect(security.principalFor(as("carol"))).toBe("carol");
    expect(security.principalFor({})).toBeUndefined();
    const token = await security.mint({ ...call, context: as("carol"), state: "x" });
    await expect(security.verify(token, { ...call, context: as("carol") })).resolves.toBe("x");
    await rejectionOf(security.verify(token, { ...call, context: as("dave") }));
    await rejectionOf(security.verify(token, { ...call, context: {} }));
  });

  it("a bindPrincipal that throws or returns a non-string fails closed on verify", async () => {
    const logger = recordingLogger();
    const throwing = new RequestStateSecurity(
      { keys: [SECRET] },
      {
        bindPrincipal: () => {
          throw new Error("identity service down");
        },
        logger,
      },
    );
    const token = await throwing.mint({ ...call, principal: "p", state: "x" });
    await rejectionOf(throwing.verify(token, { ...call, context: {} }));
    expect(logger.rejections[0]!.reason).toBe("principal_unavailable");
    const wrongType = new RequestStateSecurity({ keys: [SECRET] }, { bindPrincipal: () => 42 as unknown as string, logger });
    await rejectionOf(wrongType.verify(token, { ...call, context: {} }));
    expect(() => wrongType.principalFor({})).toThrow(TypeError);
  });

  it("an explicit principal wins over the context", async () => {
    const security = new RequestStateSecurity({ keys: [SECRET] }, { logger: recordingLogger() });
    const token = await security.mint({ ...call, principal: "explicit", context: alice, state: "x" });
    await expect(security.verify(token, { ...call, principal: "explicit", context: bob })).resolves.toBe("x");
  });

  it("each token salts its claim: equal principals give different claims", async () => {
    const seen: string[] = [];
    const security = new RequestStateSecurity({
      codec: {
        seal: (bytes) => {
          seen.push(JSON.parse(Buffer.from(bytes).toString()).p);
          return "t";
        },
        unseal: () => new Uint8Array(),
      },
    });
    await security.mint({ ...call, principal: "same", state: "x" });
    await security.mint({ ...call, principal: "same", state: "x" });
    expect(seen[0]).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(seen[0]).not.toBe(seen[1]);
  });
});

describe("ctx.principal shows what sealed state binds to", () => {
  it("with bindPrincipal, the handler sees that principal, not the one authInfo would give", async () => {
    const { McpServer } = await import("mcp-roundtrip/server");
    const security = new RequestStateSecurity(
      { keys: [SECRET] },
      { audience: "principal-test", bindPrincipal: (context) => context.headers?.get("x-authenticated-user") ?? undefined, logger: recordingLogger() },
    );
    const mcp = new McpServer({ name: "principal-test", version: "1" }, { requestStateSecurity: security });
    mcp.tool("whoami", { inputSchema: { type: "object" } }, (_args, ctx) => ({ content: [{ type: "text", text: String(ctx.principal) }] }));
    const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
    const response = await mcp.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "whoami", arguments: {}, _meta: meta } },
      { ...alice, headers: new Headers({ "x-authenticated-user": "carol@proxy" }) },
    );
    expect(response).toMatchObject({ result: { content: [{ type: "text", text: "carol@proxy" }] } });
  });
});
