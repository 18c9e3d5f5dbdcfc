import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { jwtVerifier, JwtRejected } from "mcp-roundtrip/ext/jwt";
import { createHttpHandler } from "mcp-roundtrip/server";
import { mcpHeaders, rpc, stubServer } from "../transport/helpers.js";

const RESOURCE = "http://127.0.0.1:9/mcp";

let issuer: string;
let as: Server;
let signingKey: CryptoKey;
let otherKey: CryptoKey;
let publicJwk: JWK;
/** What the fake authorization server's metadata says about itself (a test may lie). */
let advertisedIssuer: (real: string) => string = (real) => real;
const hits: string[] = [];

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair("ES256")).privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  as = createServer((request, response) => {
    hits.push(request.url!);
    if (request.url === "/tenant/.well-known/openid-configuration") {
      // Only the last form answers, so discovery has to walk the spec's order.
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ issuer: advertisedIssuer(issuer), jwks_uri: `${origin()}/jwks` }));
      return;
    }
    if (request.url === "/jwks") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => as.listen(0, "127.0.0.1", resolve));
  issuer = `${origin()}/tenant`;
});
afterAll(() => new Promise<void>((resolve) => as.close(() => resolve())));

function origin(): string {
  return `http://127.0.0.1:${(as.address() as AddressInfo).port}`;
}

interface Claims {
  iss?: string;
  aud?: string | string[];
  sub?: string;
  exp?: number;
  scope?: string;
  client_id?: string;
  key?: CryptoKey;
  kid?: string;
}

function token(claims: Claims = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { key = signingKey, kid = "k1", ...body } = claims;
  return new SignJWT({ scope: "files:read", client_id: "app", ...body })
    .setProtectedHeader({ alg: "ES256", kid, typ: "at+jwt" })
    .setIssuer(claims.iss ?? issuer)
    .setAudience(claims.aud ?? RESOURCE)
    .setSubject(claims.sub ?? "alice")
    .setIssuedAt(now)
    .setExpirationTime(claims.exp ?? now + 300)
    .sign(key);
}

const request = { method: "POST", url: RESOURCE, headers: new Headers(), resource: RESOURCE };

async function rejection(verify: ReturnType<typeof jwtVerifier>, jwt: string): Promise<JwtRejected> {
  const error = await verify(jwt, request).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(JwtRejected);
  const rejected = error as JwtRejected;
  // The log gets the reason; never the token, whole or in part.
  const logged = `${String(rejected)} ${rejected.stack} ${JSON.stringify(rejected)}`;
  expect(logged).not.toContain(jwt);
  for (const part of jwt.split(".")) if (part.length > 8) expect(logged).not.toContain(part);
  return rejected;
}

describe("jwtVerifier", () => {
  it("discovers the JWKS in the spec's order and accepts a token for this resource", async () => {
    hits.length = 0;
    const verify = jwtVerifier({ issuer });
    const info = await verify(await token({ scope: "files:read files:write" }), request);
    expect(info).toMatchObject({ clientId: "app", issuer, subject: "alice", scopes: ["files:read", "files:write"] });
    expect(hits).toEqual([
      "/.well-known/oauth-authorization-server/tenant",
      "/.well-known/openid-configuration/tenant",
      "/tenant/.well-known/openid-configuration",
      "/jwks",
    ]);
  });

  it.each<[string, () => Promise<Claims>, string]>([
    ["another audience", async () => ({ aud: "https://other.example/mcp" }), "wrong_audience"],
    ["another issuer", async () => ({ iss: "https://evil.example" }), "wrong_issuer"],
    ["an expired token", async () => ({ exp: Math.floor(Date.now() / 1000) - 60 }), "expired"],
    ["a signature by another key", async () => ({ key: otherKey }), "bad_signature"],
    ["an unknown key id", async () => ({ kid: "k2" }), "unknown_key"],
  ])("refuses %s, saying why only in the log", async (_, claims, reason) => {
    const verify = jwtVerifier({ issuer, jwksUri: `${origin()}/jwks` });
    expect((await rejection(verify, await token(await claims()))).reason).toBe(reason);
  });

  it("grants what broader scopes imply, transitively (scope hierarchies)", async () => {
    const verify = jwtVerifier({
      issuer,
      jwks: { keys: [publicJwk] },
      impliedScopes: { "files:admin": ["files:write"], "files:write": ["files:read"], "files:read": ["files:admin"] },
    });
    const info = await verify(await token({ scope: "files:write" }), request);
    expect(info.scopes.sort()).toEqual(["files:admin", "files:read", "files:write"]);
    const plain = await jwtVerifier({ issuer, jwks: { keys: [publicJwk] } })(await token({ scope: "files:write" }), request);
    expect(plain.scopes).toEqual(["files:write"]);
    expect(() => jwtVerifier({ issuer, impliedScopes: { a: "b" } as never })).toThrow(/impliedScopes must map/);
  });

  it("accepts a token expired within the clock tolerance, not beyond", async () => {
    const verify = jwtVerifier({ issuer, jwks: { keys: [publicJwk] }, clockToleranceSeconds: 30 });
    await expect(verify(await token({ exp: Math.floor(Date.now() / 1000) - 10 }), request)).resolves.toMatchObject({ subject: "alice" });
    expect((await rejection(verify, await token({ exp: Math.floor(Date.now() / 1000) - 60 }))).reason).toBe("expired");
  });

  it("refuses unsigned and shared-secret tokens", async () => {
    const verify = jwtVerifier({ issuer, jwks: { keys: [publicJwk] } });
    const body = (await token()).split(".")[1];
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "at+jwt" })).toString("base64url")}.${body}.`;
    expect((await rejection(verify, none)).reason).toMatch(/algorithm_not_allowed|malformed/);
    const hs = await new SignJWT({ sub: "alice" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(issuer)
      .setAudience(RESOURCE)
      .setExpirationTime("5m")
      .sign(new Uint8Array(32));
    expect((await rejection(verify, hs)).reason).toMatch(/algorithm_not_allowed|unknown_key/);
    expect(() => jwtVerifier({ issuer, algorithms: ["HS256"] })).toThrow(/not accepted for access tokens/);
  });

  it("refuses metadata that names another issuer (RFC 8414 §3.3)", async () => {
    advertisedIssuer = () => "https://honest.example";
    try {
      const rejected = await rejection(jwtVerifier({ issuer }), await token());
      expect(rejected.reason).toBe("jwks_unavailable");
      expect(rejected.message).toContain("https://honest.example");
    } finally {
      advertisedIssuer = (real) => real;
    }
  });

  it("needs an audience: its own option or the handler's resource", async () => {
    const verify = jwtVerifier({ issuer, jwks: { keys: [publicJwk] } });
    const error = await verify(await token(), { method: "POST", url: RESOURCE, headers: new Headers() }).catch((e: unknown) => e);
    expect((error as JwtRejected).reason).toBe("no_audience_configured");
    const pinned = jwtVerifier({ issuer, jwks: { keys: [publicJwk] }, audience: "https://other.example/mcp" });
    await expect(pinned(await token({ aud: "https://other.example/mcp" }), request)).resolves.toMatchObject({ subject: "alice" });
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ["no issuer", { issuer: undefined }, /issuer must be an https URL/],
    ["an http issuer off loopback", { issuer: "http://auth.example.com" }, /https/],
    ["both jwks and jwksUri", { jwks: { keys: [] }, jwksUri: "https://auth.example.com/jwks" }, /not both/],
    ["an empty audience", { audience: "" }, /audience must be/],
    ["a huge clock tolerance", { clockToleranceSeconds: 3600 }, /0 to 300/],
  ])("refuses %s at construction", (_, change, message) => {
    expect(() => jwtVerifier({ issuer: "https://auth.example.com", ...change } as never)).toThrow(message);
  });

  it("refuses another spelling of the same signature (spare bits set in a segment's last character)", async () => {
    const verify = jwtVerifier({ issuer, jwks: { keys: [publicJwk] } });
    const good = await token();
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(good.at(-1)!);
    // An ES256 signature is 64 bytes: 86 characters, the last carrying 4 spare bits.
    const respelled = good.slice(0, -1) + alphabet[last | 0x01];
    expect(respelled).not.toBe(good);
    await expect(verify(good, request)).resolves.toMatchObject({ subject: expect.any(String) });
    await expect(verify(respelled, request)).rejects.toMatchObject({ reason: "malformed" });
  });

  it("never accepts a token with any byte changed", async () => {
    const verify = jwtVerifier({ issuer, jwks: { keys: [publicJwk] } });
    const good = await token();
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: good.length - 1 }), fc.constantFrom(..."ABCDEFabcdef0123456789-_."), async (at, char) => {
        fc.pre(good[at] !== char);
        const bad = good.slice(0, at) + char + good.slice(at + 1);
        await expect(verify(bad, request)).rejects.toBeInstanceOf(JwtRejected);
      }),
      { numRuns: 150 },
    );
  });
});

describe("jwtVerifier behind the authorization option", () => {
  it("answers 401 invalid_token for a token of another audience; the reason reaches onError only", async () => {
    const logged: unknown[] = [];
    const { handler } = stubServer({ "tools/list": async () => ({ resultType: "complete", tools: [] }) });
    const handle = createHttpHandler(handler, {
      authorization: { resource: RESOURCE, authorizationServers: [issuer], verify: jwtVerifier({ issuer, jwksUri: `${origin()}/jwks` }) },
      onError: (error) => logged.push(error),
    });
    const send = (jwt: string) =>
      handle(
        new Request(RESOURCE, { method: "POST", headers: { ...mcpHeaders("tools/list"), authorization: `Bearer ${jwt}` }, body: JSON.stringify(rpc("tools/list")) }),
      );
    expect((await send(await token())).status).toBe(200);
    const foreign = await token({ aud: "https://other.example/mcp" });
    const response = await send(foreign);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const body = await response.text();
    expect(body).not.toContain("audience");
    expect(logged).toHaveLength(1);
    expect((logged[0] as JwtRejected).reason).toBe("wrong_audience");
    expect(String(logged[0])).not.toContain(foreign.split(".")[1]!);
  });
});
