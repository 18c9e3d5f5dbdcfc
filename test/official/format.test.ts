// One format: a token minted through the official-SDK codec is our v1 token,
// byte for byte the one our own McpServer mints for the same tool call,
// arguments, principal, audience, state, clock and nonce, and either opens
// with the other's keys. Known answers: the pinned token below, and an
// envelope decrypted here with node:crypto alone.
import { createDecipheriv, hkdfSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSealedRequestStateCodec, principalOfOfficialAuthInfo, type OfficialRequestContext } from "mcp-roundtrip/ext/official";
import { inputRequired, McpServer, RequestStateSecurity } from "mcp-roundtrip/server";
import { __TESTS } from "../../runtime/state/token/testing.js";
import { pair } from "../server/helpers.js";

const SECRET = "official-codec-kat-secret-0123456789abcdef";
const NOW = 1_800_000_000;
const AUDIENCE = "weather-kat";
const ARGS = { text: "Tomorrow", days: 3 };
const PAYLOAD = { step: 2, city: "Porto" };
/** Their AuthInfo and ours for one caller. */
const THEIR_AUTH = { token: "t", clientId: "client-1", scopes: [], extra: { iss: "https://as.example", sub: "alice" } };
const OUR_AUTH = { clientId: "client-1", issuer: "https://as.example", subject: "alice", scopes: [] };
/** Nonces and salts: a fixed function of the length, so every instance draws the same bytes. */
const random = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 37 + 11) & 0xff);
/** Computed once from this file's inputs; any change to the format changes it. */
const PINNED =
  "v1.v3meAQswVXqfxOkOM1h9os9PH4yx0v1M5UFZcnj3fy1UA60eXrMQdtPw6J8VFIEOv7HgpJVarylsWEYYi7YbyjSZ2DqwjSt6oieoZrQga_XF-JoLSxaoFn_tzIvguyZt8NLczDxJamYxpPzk7YN9IR3V7Ti12bOjs99lfU-JWDm6KJzkJH0dsTgQFJis_lSwM_ICDs5UY9l9poziRkR1e0FjYRjhLNyvBQhtWVLTVH0BntRjIbjlp2zzw7dbBr0I-FgbgXEEiRX4V8d2sb1EBYtRfT-DYhBXHOuZD9vAL-K1z3jQQR-k";

const security = (crypto: "node" | "noble") =>
  new RequestStateSecurity({ keys: [SECRET] }, __TESTS.withRandom({ now: () => NOW, crypto, logger: { warn() {} } }, random));

/** Their handler ctx for a tools/call of forecast(ARGS), its body captured as codec.capture would. */
async function capturedCtx(codec: ReturnType<typeof createSealedRequestStateCodec>, args: unknown = ARGS): Promise<OfficialRequestContext> {
  const body = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "forecast", arguments: args } };
  const request = new Request("http://localhost/mcp", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  await codec.capture(async () => new Response(null, { status: 202 }))(request);
  return { mcpReq: { id: 7, method: "tools/call" }, http: { req: request, authInfo: THEIR_AUTH } };
}

/** Our McpServer's first-round token for forecast(ARGS) by the same caller, sealing `state`. */
async function ourServerToken(crypto: "node" | "noble", state: string): Promise<string> {
  const mcp = new McpServer({ name: AUDIENCE, version: "1.0.0" }, { requestStateSecurity: security(crypto) });
  mcp.tool("forecast", { inputSchema: { type: "object" } }, () =>
    inputRequired({
      inputRequests: { city: { method: "elicitation/create", params: { message: "?", requestedSchema: { type: "object", properties: {} } } } },
      requestState: state,
    }),
  );
  const result = await pair(mcp, { elicitation: {} }).result("tools/call", { name: "forecast", arguments: ARGS }, { authInfo: OUR_AUTH });
  return result.requestState as string;
}

/** Opens a v1 token with node:crypto and nothing of this package: HKDF-SHA256 key, AES-256-GCM, AAD "v1." ‖ kid. */
function openIndependently(token: string): Record<string, unknown> {
  const bytes = Buffer.from(token.slice(3), "base64url");
  const key = Buffer.from(hkdfSync("sha256", SECRET, Buffer.alloc(0), "mcp/request-state/v1/aes-256-gcm", 32));
  const kid = bytes.subarray(0, 4);
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(4, 16));
  decipher.setAAD(Buffer.concat([Buffer.from("v1."), kid]));
  decipher.setAuthTag(bytes.subarray(bytes.length - 16));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(16, bytes.length - 16)), decipher.final()]).toString("utf8"));
}

describe.each(["node", "noble"] as const)("one token format on the %s backend", (crypto) => {
  it("mints the pinned known answer through the codec", async () => {
    const codec = createSealedRequestStateCodec(security(crypto), { audience: AUDIENCE });
    expect(await codec.mint(PAYLOAD, await capturedCtx(codec))).toBe(PINNED);
  });

  it("seals the envelope fields our format defines, readable with node:crypto alone", async () => {
    const envelope = openIndependently(PINNED);
    const principal = principalOfOfficialAuthInfo(THEIR_AUTH);
    expect(principal).toBe('["client-1","https://as.example","alice"]');
    const salt = Buffer.from(envelope.p as string, "base64url").subarray(0, 8);
    expect(envelope).toEqual({
      v: 1,
      iat: NOW,
      exp: NOW + 600,
      m: "tools/call",
      t: "forecast",
      a: __TESTS.argumentsDigest(ARGS, crypto),
      s: JSON.stringify(PAYLOAD),
      aud: AUDIENCE,
      p: __TESTS.principalClaim(principal, salt, crypto),
    });
  });

  it("is byte for byte the token our McpServer mints for the same call, caller and state", async () => {
    expect(await ourServerToken(crypto, JSON.stringify(PAYLOAD))).toBe(PINNED);
  });

  it("opens our McpServer's token through the codec, and the codec's through RequestStateSecurity", async () => {
    const codec = createSealedRequestStateCodec(security(crypto), { audience: AUDIENCE });
    expect(await codec.verify(await ourServerToken(crypto, JSON.stringify(PAYLOAD)), await capturedCtx(codec))).toEqual(PAYLOAD);
    const minted = await codec.mint(PAYLOAD, await capturedCtx(codec));
    const state = await security(crypto).verify(minted, {
      method: "tools/call",
      target: "forecast",
      arguments: ARGS,
      principal: principalOfOfficialAuthInfo(THEIR_AUTH),
      audience: AUDIENCE,
    });
    expect(JSON.parse(state)).toEqual(PAYLOAD);
  });

  it('with payload: "text", carries an mcp-roundtrip handler\'s plain-text state as is', async () => {
    const codec = createSealedRequestStateCodec<string>(security(crypto), { audience: AUDIENCE, payload: "text" });
    const ours = await ourServerToken(crypto, "step-2");
    expect(await codec.verify(ours, await capturedCtx(codec))).toBe("step-2");
    expect(await codec.mint("step-2", await capturedCtx(codec))).toBe(ours);
    // A JSON-mode codec refuses that state rather than hand the handler a string it did not mint.
    const json = createSealedRequestStateCodec(security(crypto), { audience: AUDIENCE, logger: { warn() {} } });
    await expect(json.verify(ours, await capturedCtx(json))).rejects.toThrow("Invalid or expired requestState");
  });
});
