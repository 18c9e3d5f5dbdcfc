// The OAuth client's reading of challenges and its discovery order, table
// by table against the spec's text (authorization-server-discovery.mdx), and
// the challenge parser against arbitrary headers.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bearerChallenge, parseChallenges } from "../../runtime/ext/oauth/challenge.js";
import { authorizationServerMetadataUrls, canonicalResource, resourceCovers, resourceMetadataUrls } from "../../runtime/ext/oauth/discovery.js";
import type { OAuthHttp } from "../../runtime/ext/oauth/http.js";
import { unionScopes } from "../../runtime/ext/oauth/scopes.js";

const http: OAuthHttp = { fetch: globalThis.fetch, allowInsecureHttp: false, log: () => {} };

describe("WWW-Authenticate", () => {
  it.each([
    [
      'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource", scope="files:read"',
      { resource_metadata: "https://mcp.example/.well-known/oauth-protected-resource", scope: "files:read" },
    ],
    [
      'Bearer error="insufficient_scope", scope="a b", error_description="needs \\"b\\""',
      { error: "insufficient_scope", scope: "a b", error_description: 'needs "b"' },
    ],
    ["Bearer realm=mcp, error=invalid_token", { realm: "mcp", error: "invalid_token" }],
    ['Basic realm="x", Bearer scope="s"', { scope: "s" }],
    ['Negotiate abc==, Bearer SCOPE="s"', { scope: "s" }],
    ['Basic dXNlcg, Bearer scope="s"', { scope: "s" }],
    ["Bearer", {}],
  ])("%s", (header, params) => {
    expect(bearerChallenge(header)).toEqual(params);
  });

  it("finds no Bearer challenge where there is none", () => {
    expect(bearerChallenge(undefined)).toBeUndefined();
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(bearerChallenge("Negotiate Bearer")).toBeUndefined(); // "Bearer" here is Negotiate's token68
  });

  it("reads back any parameters written as quoted strings, and never throws on garbage", () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,12}$/);
    const value = fc.string({ unit: fc.constantFrom(..." !#$%&'()*+,-./0123456789:;<=>?@AZaz[]^_`{|}~\"\\".split("")), maxLength: 30 });
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 6 }), (params) => {
        const rendered = Object.entries(params).map(([key, v]) => `${key}="${v.replace(/["\\]/g, "\\$&")}"`);
        const header = `Basic realm="other", Bearer ${rendered.join(", ")}`;
        expect(bearerChallenge(header)).toEqual(params);
      }),
    );
    fc.assert(fc.property(fc.string(), (header) => void parseChallenges(header)));
  });
});

describe("protected resource metadata locations, in the spec's order", () => {
  it.each([
    [
      "https://example.com/public/mcp",
      undefined,
      ["https://example.com/.well-known/oauth-protected-resource/public/mcp", "https://example.com/.well-known/oauth-protected-resource"],
    ],
    [
      "https://example.com/mcp/",
      undefined,
      ["https://example.com/.well-known/oauth-protected-resource/mcp", "https://example.com/.well-known/oauth-protected-resource"],
    ],
    ["https://example.com/", undefined, ["https://example.com/.well-known/oauth-protected-resource"]],
    ["https://example.com/mcp", "https://meta.example/prm.json", ["https://meta.example/prm.json"]],
  ])("%s (challenge: %s)", (endpoint, fromChallenge, urls) => {
    expect(resourceMetadataUrls(new URL(endpoint), fromChallenge, http).map(String)).toEqual(urls);
  });

  it("refuses a plain-http resource_metadata on a non-loopback host", () => {
    expect(() => resourceMetadataUrls(new URL("https://example.com/mcp"), "http://meta.example/prm", http)).toThrow(/plain http/);
  });
});

describe("authorization server metadata locations, in the spec's order", () => {
  it.each([
    [
      "https://auth.example.com/tenant1",
      [
        "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        "https://auth.example.com/tenant1/.well-known/openid-configuration",
      ],
    ],
    ["https://auth.example.com", ["https://auth.example.com/.well-known/oauth-authorization-server", "https://auth.example.com/.well-known/openid-configuration"]],
  ])("%s", (issuer, urls) => {
    expect(authorizationServerMetadataUrls(new URL(issuer)).map(String)).toEqual(urls);
  });
});

describe("which resources metadata may describe", () => {
  it.each([
    ["https://mcp.example/mcp", "https://mcp.example/mcp", true],
    ["https://mcp.example", "https://mcp.example/mcp", true],
    ["https://mcp.example/", "https://mcp.example/mcp", true],
    ["https://mcp.example/api", "https://mcp.example/api/mcp", true],
    ["https://mcp.example/ap", "https://mcp.example/api/mcp", false],
    ["https://evil.example/mcp", "https://mcp.example/mcp", false],
    ["http://mcp.example/mcp", "https://mcp.example/mcp", false],
    ["https://mcp.example/mcp/other", "https://mcp.example/mcp", false],
    ["https://mcp.example/mcp#frag", "https://mcp.example/mcp", false],
    ["not a url", "https://mcp.example/mcp", false],
  ])("%s covers %s: %s", (resource, endpoint, covers) => {
    expect(resourceCovers(resource, new URL(endpoint))).toBe(covers);
  });

  it("names a server by its URL without fragment, query or a lone trailing slash", () => {
    expect(canonicalResource(new URL("https://MCP.example:443/mcp?x=1#f"))).toBe("https://mcp.example/mcp");
    expect(canonicalResource(new URL("https://mcp.example/"))).toBe("https://mcp.example");
  });
});

describe("scope unions", () => {
  it("keeps each scope once, in first-seen order, and is undefined when empty", () => {
    expect(unionScopes("a b", undefined, "b c")).toBe("a b c");
    expect(unionScopes(undefined, "")).toBeUndefined();
  });
});
