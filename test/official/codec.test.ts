// createSealedRequestStateCodec on its own: what it binds for each method,
// where the principal comes from, how it fails closed, and what misuse throws.
import { describe, expect, it } from "vitest";
import {
  createSealedRequestStateCodec,
  InvalidRequestState,
  MemoryReplayStore,
  principalOfOfficialAuthInfo,
  RequestStateSecurity,
  type OfficialAuthInfo,
  type OfficialRequestContext,
  type RequestStateRejection,
  type SealedRequestStateCodecOptions,
} from "mcp-roundtrip/ext/official";
import { principalOf } from "mcp-roundtrip/server";

const SECRET = "official-codec-unit-secret-0123456789abcdef";
const ALICE: OfficialAuthInfo = { clientId: "client-1", extra: { sub: "alice" } };

function setup(options: SealedRequestStateCodecOptions = {}, securityOptions = {}) {
  const rejections: RequestStateRejection[] = [];
  const logger = { warn: (_: string, rejection: RequestStateRejection) => void rejections.push(rejection) };
  const security = new RequestStateSecurity({ keys: [SECRET] }, { logger, ...securityOptions });
  const codec = createSealedRequestStateCodec(security, { audience: "unit", logger, ...options });
  return { codec, security, rejections };
}

let nextId = 1;
/** A ctx whose request body went through codec.capture, like one their server builds. */
async function ctxFor(
  codec: ReturnType<typeof createSealedRequestStateCodec>,
  method: string,
  params: Record<string, unknown>,
  authInfo?: OfficialAuthInfo,
): Promise<OfficialRequestContext> {
  const id = nextId++;
  const request = new Request("http://localhost/mcp", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
  });
  await codec.capture(async () => new Response())(request);
  return { mcpReq: { id, method }, http: { req: request, ...(authInfo ? { authInfo } : {}) } };
}

const reasons = (rejections: RequestStateRejection[]) => rejections.map((rejection) => rejection.reason);

describe("what a token is bound to, per method", () => {
  it("tools/call and prompts/get: the name and the arguments", async () => {
    for (const method of ["tools/call", "prompts/get"]) {
      const { codec, rejections } = setup();
      const token = await codec.mint({ n: 1 }, await ctxFor(codec, method, { name: "a", arguments: { x: 1 } }));
      expect(await codec.verify(token, await ctxFor(codec, method, { name: "a", arguments: { x: 1 } }))).toEqual({ n: 1 });
      await expect(codec.verify(token, await ctxFor(codec, method, { name: "b", arguments: { x: 1 } }))).rejects.toThrow(InvalidRequestState);
      await expect(codec.verify(token, await ctxFor(codec, method, { name: "a", arguments: { x: 2 } }))).rejects.toThrow(InvalidRequestState);
      expect(reasons(rejections)).toEqual(["target_mismatch", "arguments_mismatch"]);
    }
  });

  it("resources/read: the URI, and no arguments", async () => {
    const { codec, rejections } = setup();
    const token = await codec.mint("s", await ctxFor(codec, "resources/read", { uri: "file:///a" }));
    expect(await codec.verify(token, await ctxFor(codec, "resources/read", { uri: "file:///a", arguments: { ignored: true } }))).toBe("s");
    await expect(codec.verify(token, await ctxFor(codec, "resources/read", { uri: "file:///b" }))).rejects.toThrow(InvalidRequestState);
    expect(reasons(rejections)).toEqual(["target_mismatch"]);
  });

  it("other methods: nothing is sealed there (mint throws, verify rejects)", async () => {
    const { codec, rejections } = setup();
    const ctx = await ctxFor(codec, "tools/list", {});
    await expect(codec.mint(1, ctx)).rejects.toThrow(/only sealed on tools\/call, prompts\/get and resources\/read/);
    await expect(codec.verify("v1.x", ctx)).rejects.toThrow(InvalidRequestState);
    expect(reasons(rejections)).toEqual(["method_mismatch"]);
  });

  it("without a captured request: bindRequest decides, else mint refuses and verify fails closed", async () => {
    const bare: OfficialRequestContext = { mcpReq: { id: 1, method: "tools/call" } };
    const { codec, rejections } = setup();
    await expect(codec.mint(1, bare)).rejects.toThrow(/codec\.capture\(createMcpHandler/);
    await expect(codec.verify("v1.x", bare)).rejects.toThrow(InvalidRequestState);
    expect(reasons(rejections)).toEqual(["internal_error"]);

    const bound = setup({ bindRequest: () => ({ target: "a", arguments: { x: 1 } }) }).codec;
    expect(await bound.verify(await bound.mint(1, bare), bare)).toBe(1);
    const broken = setup({ bindRequest: () => ({ target: 42 }) as never });
    await expect(broken.codec.mint(1, bare)).rejects.toThrow(/bindRequest expected/);
    await expect(broken.codec.verify("v1.x", bare)).rejects.toThrow(InvalidRequestState);
  });

  it("a captured request wins over bindRequest", async () => {
    const { codec } = setup({ bindRequest: () => ({ target: "elsewhere" }) });
    const token = await codec.mint(1, await ctxFor(codec, "tools/call", { name: "a" }));
    expect(await codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }))).toBe(1);
  });
});

describe("the principal", () => {
  it("maps their AuthInfo as our principalOf writes ours: clientId, extra.iss, extra.sub", () => {
    expect(principalOfOfficialAuthInfo({ clientId: "c", extra: { iss: "https://as", sub: "u" } })).toBe(
      principalOf({ clientId: "c", issuer: "https://as", subject: "u" }),
    );
    expect(principalOfOfficialAuthInfo({ clientId: "c" })).toBe('["c",null,null]');
    expect(principalOfOfficialAuthInfo({ clientId: "c", extra: { issuer: "ignored", subject: "ignored" } })).toBe('["c",null,null]');
  });

  it("never binds a missing identity as someone else", () => {
    for (const bad of [
      { clientId: "" },
      { clientId: 7 },
      { clientId: "c", extra: { sub: "" } },
      { clientId: "c", extra: { iss: 1 } },
      { clientId: "c", extra: "x" },
      null,
    ]) {
      expect(() => principalOfOfficialAuthInfo(bad as never)).toThrow(TypeError);
    }
  });

  it("binds ctx.http.authInfo: another caller, or none, is refused", async () => {
    const { codec, rejections } = setup();
    const token = await codec.mint(1, await ctxFor(codec, "tools/call", { name: "a" }, ALICE));
    expect(await codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }, ALICE))).toBe(1);
    await expect(codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }, { clientId: "client-1", extra: { sub: "bob" } }))).rejects.toThrow(
      InvalidRequestState,
    );
    await expect(codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }))).rejects.toThrow(InvalidRequestState);
    await expect(codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }, { clientId: "" }))).rejects.toThrow(InvalidRequestState);
    expect(reasons(rejections)).toEqual(["principal_mismatch", "principal_unexpected", "principal_unavailable"]);
    await expect(codec.mint(1, await ctxFor(codec, "tools/call", { name: "a" }, { clientId: "" }))).rejects.toThrow(/clientId/);
  });

  it("bindPrincipal, when given, alone decides", async () => {
    const { codec } = setup({ bindPrincipal: (ctx) => (ctx.mcpReq.id === -1 ? undefined : "tenant-7") });
    const token = await codec.mint(1, await ctxFor(codec, "tools/call", { name: "a" }, ALICE));
    expect(await codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }, { clientId: "someone-else" }))).toBe(1);
    const empty = setup({ bindPrincipal: () => "" }).codec;
    await expect(empty.mint(1, await ctxFor(empty, "tools/call", { name: "a" }))).rejects.toThrow(/bindPrincipal expected/);
  });
});

describe("failing closed", () => {
  it("rejects what it did not mint, whatever its type", async () => {
    const { codec } = setup();
    const ctx = await ctxFor(codec, "tools/call", { name: "a" });
    for (const state of ["", "v1.", "v1.AAAA", "x".repeat(70_000), 42, null, { v: 1 }]) {
      await expect(codec.verify(state as never, ctx)).rejects.toThrow("Invalid or expired requestState");
    }
    await expect(codec.verify("v1.x", undefined as never)).rejects.toThrow(InvalidRequestState);
  });

  it("turns a throwing security into a rejection, and survives a throwing logger", async () => {
    const security = {
      audience: "unit",
      mint: async () => "t",
      verify: async () => {
        throw new Error("kms down");
      },
    };
    const codec = createSealedRequestStateCodec(security as never, {
      logger: {
        warn: () => {
          throw new Error("log down");
        },
      },
    });
    await expect(codec.verify("t", await ctxFor(codec, "tools/call", { name: "a" }))).rejects.toThrow(InvalidRequestState);
  });

  it("with a replay store, a token is spent when verify accepts it", async () => {
    const { codec, rejections } = setup({}, { replay: new MemoryReplayStore() });
    const token = await codec.mint(1, await ctxFor(codec, "tools/call", { name: "a" }));
    expect(await codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }))).toBe(1);
    await expect(codec.verify(token, await ctxFor(codec, "tools/call", { name: "a" }))).rejects.toThrow(InvalidRequestState);
    expect(reasons(rejections)).toEqual(["replayed"]);
  });
});

describe("misuse", () => {
  const security = RequestStateSecurity.ephemeral();

  it("throws at construction for a bad security, a missing or contradicting audience, bad options", () => {
    expect(() => createSealedRequestStateCodec({} as never, { audience: "a" })).toThrow(/expected a RequestStateSecurity/);
    expect(() => createSealedRequestStateCodec(security)).toThrow(/needs an audience/);
    expect(() => createSealedRequestStateCodec(security, { audience: "" })).toThrow(/non-empty string/);
    const owned = new RequestStateSecurity({ keys: [SECRET] }, { audience: "own" });
    expect(createSealedRequestStateCodec(owned).audience).toBe("own");
    expect(() => createSealedRequestStateCodec(owned, { audience: "other" })).toThrow(/contradicts/);
    expect(() => createSealedRequestStateCodec(security, { audience: "a", payload: "xml" as never })).toThrow(/"json" or "text"/);
    expect(() => createSealedRequestStateCodec(security, { audience: "a", bindPrincipal: "x" as never })).toThrow(/bindPrincipal/);
    expect(() => createSealedRequestStateCodec(security, { audience: "a", logger: {} as never })).toThrow(/warn/);
  });

  it("mint needs the ctx and a payload it can encode", async () => {
    const codec = createSealedRequestStateCodec(security, { audience: "a" });
    await expect(codec.mint(1)).rejects.toThrow(/needs the handler's ctx/);
    const ctx = await ctxFor(codec, "tools/call", { name: "a" });
    await expect(codec.mint(undefined, ctx)).rejects.toThrow(/JSON-serialisable/);
    await expect(codec.mint(10n, ctx)).rejects.toThrow(TypeError);
    const text = createSealedRequestStateCodec(security, { audience: "a", payload: "text" });
    await expect(text.mint({ not: "text" }, ctx)).rejects.toThrow(/string payload/);
  });

  it("verify and mint need no this (they are passed detached)", async () => {
    const { mint, verify } = createSealedRequestStateCodec(security, { audience: "a" });
    const ctx = await ctxFor(createSealedRequestStateCodec(security, { audience: "a" }), "tools/call", { name: "a" });
    expect(await verify(await mint([1, 2], ctx), ctx)).toEqual([1, 2]);
  });
});
