import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { createHttpHandler, type AuthorizationOptions, type HttpRequestInfo } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import type { MessageHandler } from "../../runtime/transport/types.js";
import { mcpHeaders, rpc, stubServer } from "./helpers.js";

const RESOURCE = "https://mcp.example.com/public/mcp";
const METADATA_URL = "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp";

const seenRequests: HttpRequestInfo[] = [];
const authorization: AuthorizationOptions = {
  resource: RESOURCE,
  authorizationServers: ["https://auth.example.com"],
  scopesSupported: ["mcp:read", "mcp:write"],
  resourceName: "Example files",
  verify: (token, request) => {
    seenRequests.push(request);
    if (token === "reader") return { clientId: "app", issuer: "https://auth.example.com", subject: "alice", scopes: ["mcp:read"] };
    if (token === "throws") throw new Error("JWKS unreachable");
    return null;
  },
};

const post = (handle: (request: Request) => Promise<Response>, authorization?: string, url = "http://127.0.0.1/public/mcp") =>
  handle(
    new Request(url, {
      method: "POST",
      headers: { ...mcpHeaders("tools/list"), ...(authorization ? { authorization } : {}) },
      body: JSON.stringify(rpc("tools/list")),
    }),
  );

describe("authorization: protected-resource metadata (RFC 9728)", () => {
  const { handler } = stubServer();
  const handle = createHttpHandler(handler, { authorization });
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(handler, { authorization, path: "/public/mcp" });
  });
  afterAll(() => http.close());

  const expected = {
    resource: RESOURCE,
    authorization_servers: ["https://auth.example.com"],
    bearer_methods_supported: ["header"],
    scopes_supported: ["mcp:read", "mcp:write"],
    resource_name: "Example files",
  };

  it.each(["/.well-known/oauth-protected-resource/public/mcp", "/.well-known/oauth-protected-resource"])(
    "serves the document at %s from both adapters, readable cross-origin",
    async (path) => {
      for (const response of [
        await handle(new Request(`http://127.0.0.1${path}`, { headers: { origin: "https://app.example" } })),
        await fetch(`http://127.0.0.1:${http.port}${path}`, { headers: { origin: "https://app.example" } }),
      ]) {
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/json");
        expect(response.headers.get("access-control-allow-origin")).toBe("*");
        expect(await response.json()).toEqual(expected);
      }
    },
  );

  it("answers a browser's preflight and refuses other methods", async () => {
    const preflight = await fetch(`http://127.0.0.1:${http.port}/.well-known/oauth-protected-resource/public/mcp`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "GET", "access-control-request-headers": "mcp-protocol-version" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")).toContain("GET");
    const posted = await handle(new Request("http://127.0.0.1/.well-known/oauth-protected-resource", { method: "POST", body: "{}" }));
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
  });

  it("answers 404 for other well-known paths on node", async () => {
    const other = await fetch(`http://127.0.0.1:${http.port}/.well-known/oauth-protected-resource/other`);
    expect(other.status).toBe(404);
  });

  it("serves a root resource at the root well-known path only", async () => {
    const root = createHttpHandler(handler, { authorization: { ...authorization, resource: "https://mcp.example.com" } });
    const response = await root(new Request("http://127.0.0.1/.well-known/oauth-protected-resource"));
    expect((await response.json()).resource).toBe("https://mcp.example.com");
    const unauthorized = await post(root);
    expect(unauthorized.headers.get("www-authenticate")).toBe(
      'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="mcp:read mcp:write"',
    );
  });

  it("derives the path-aware location from any resource path, and advertises it in the challenge", async () => {
    const segment = fc.stringMatching(/^[a-z0-9][a-z0-9._~-]{0,11}$/); // dot segments are normalised away by URL
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean(), async (segments, trailingSlash) => {
        const path = `/${segments.join("/")}`;
        const resource = `https://mcp.example.com${path}${trailingSlash ? "/" : ""}`;
        const endpoint = createHttpHandler(handler, { authorization: { ...authorization, resource } });
        const document = await endpoint(new Request(`http://127.0.0.1/.well-known/oauth-protected-resource${path}`));
        expect(document.status).toBe(200);
        expect((await document.json()).resource).toBe(resource);
        const challenge = (await post(endpoint, undefined, `http://127.0.0.1${path}`)).headers.get("www-authenticate");
        expect(challenge).toContain(`resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource${path}"`);
      }),
      { numRuns: 40 },
    );
  });

  it("lets extra metadata through but not over the fields it derives", async () => {
    const custom = createHttpHandler(handler, {
      authorization: { ...authorization, metadata: { resource_documentation: "https://docs.example", resource: "https://evil.example" } },
    });
    const document = await (await custom(new Request("http://127.0.0.1/.well-known/oauth-protected-resource"))).json();
    expect(document.resource_documentation).toBe("https://docs.example");
    expect(document.resource).toBe(RESOURCE);
  });
});

describe("authorization: challenges", () => {
  const { handler, seen } = stubServer({ "tools/list": async () => ({ resultType: "complete", tools: [] }) });
  const errors: unknown[] = [];
  const handle = createHttpHandler(handler, { authorization, onError: (error) => errors.push(error) });

  it("answers a request without a token with 401 naming the metadata and the scopes", async () => {
    const response = await post(handle);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="mcp:read mcp:write"`);
    expect((await response.json()).error.message).toMatch(/WWW-Authenticate/);
  });

  it.each(["Bearer unknown", "Bearer throws", "Basic YTpi", "Bearer"])("answers %s with 401 invalid_token or invalid_request", async (header) => {
    const response = await post(handle, header);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate")!;
    expect(challenge).toMatch(new RegExp(`^Bearer resource_metadata="${METADATA_URL}", scope="mcp:read mcp:write", error="invalid_(token|request)"`));
    const text = await response.text();
    expect(text).not.toContain("unknown");
    expect(text).not.toContain("JWKS");
  });

  it("sends a throwing verifier's failure to onError, never the token", async () => {
    errors.length = 0;
    await post(handle, "Bearer throws");
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("JWKS unreachable");
  });

  it("cuts a token the verifier quoted out of what reaches onError", async () => {
    const logged: unknown[] = [];
    const careless = createHttpHandler(handler, {
      authorization: {
        ...authorization,
        verify: (token) => {
          throw new TypeError(`invalid JWT token: ${token}`);
        },
      },
      onError: (error) => logged.push(error),
    });
    const token = "eyJhbGciOiJFUzI1NiJ9.c2VjcmV0LXBheWxvYWQ.c2lnbmF0dXJl";
    expect((await post(careless, `Bearer ${token}`)).status).toBe(401);
    expect(logged).toHaveLength(1);
    const text = `${String(logged[0])} ${(logged[0] as Error).stack}`;
    expect(text).not.toContain(token);
    expect(text).toContain("invalid JWT token: [token]");
  });

  it("hands the verifier the resource, and the handler the identity", async () => {
    const response = await post(handle, "Bearer reader");
    expect(response.status).toBe(200);
    expect(seenRequests.at(-1)!.resource).toBe(RESOURCE);
    expect(seenRequests.at(-1)!.url).toBe("http://127.0.0.1/public/mcp");
    expect(seen.at(-1)!.context!.authInfo).toEqual({ clientId: "app", issuer: "https://auth.example.com", subject: "alice", scopes: ["mcp:read"] });
  });

  it("answers 403 insufficient_scope naming every required scope", async () => {
    const strict = createHttpHandler(handler, { authorization: { ...authorization, requiredScopes: ["mcp:read", "mcp:admin"] } });
    const missing = await post(strict);
    expect(missing.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${METADATA_URL}", scope="mcp:read mcp:admin"`);
    const response = await post(strict, "Bearer reader");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${METADATA_URL}", scope="mcp:read mcp:admin", error="insufficient_scope", error_description="The access token lacks a scope this request needs"`,
    );
    expect((await response.json()).error.message).toContain("mcp:admin");
  });

  it("turns a handler's insufficient_scope error into a 403 challenge", async () => {
    const asking: MessageHandler = {
      async handle(message) {
        const id = (message as { id: number }).id;
        return { jsonrpc: "2.0", id, error: { code: -32600, message: "Forbidden", data: { reason: "insufficient_scope", scopes: ["files:write", 'bad"scope'] } } };
      },
    };
    const stepUp = createHttpHandler(asking, { authorization: { ...authorization, requiredScopes: ["mcp:read"] } });
    const response = await post(stepUp, "Bearer reader");
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${METADATA_URL}", scope="mcp:read files:write", error="insufficient_scope", error_description="The access token lacks a scope this operation needs"`,
    );
    expect((await response.json()).error.data.scopes).toContain("files:write");
  });

  it("never lets a token or header value break the challenge's quoting", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), async (value) => {
        const response = await handle(
          new Request("http://127.0.0.1/public/mcp", {
            method: "POST",
            headers: { ...mcpHeaders("tools/list"), authorization: `Bearer ${value.replace(/[\r\n\0]/g, "")}` },
            body: JSON.stringify(rpc("tools/list")),
          }),
        );
        if (response.status === 200) return;
        expect(response.status).toBe(401);
        expect(response.headers.get("www-authenticate")).toMatch(/^Bearer( [a-z_]+="[^"\\]*",?)+$/);
      }),
      { numRuns: 100 },
    );
  });
});

describe("authorization: option checks", () => {
  const { handler } = stubServer();
  const cases: Array<[string, Partial<AuthorizationOptions> | Record<string, unknown>, RegExp]> = [
    ["no resource", { resource: undefined }, /authorization\.resource must be a URL/],
    ["a relative resource", { resource: "/mcp" }, /absolute URL/],
    ["plain http off loopback", { resource: "http://mcp.example.com/mcp" }, /https/],
    ["a fragment", { resource: "https://mcp.example.com/mcp#x" }, /fragment/],
    ["no authorization servers", { authorizationServers: [] }, /at least one issuer/],
    ["an issuer with a query", { authorizationServers: ["https://auth.example.com?x=1"] }, /no query/],
    ["no verify", { verify: undefined }, /verify must be a function/],
    ["a scope with a space", { scopesSupported: ["a b"] }, /scope tokens/],
    ["a required scope with a quote", { requiredScopes: ['a"'] }, /scope tokens/],
  ];
  it.each(cases)("refuses %s at construction", (_, change, message) => {
    expect(() => createHttpHandler(handler, { authorization: { ...authorization, ...change } as AuthorizationOptions })).toThrow(message);
  });

  it("accepts http on loopback, and refuses mixing with the deprecated verifyToken", () => {
    expect(() => createHttpHandler(handler, { authorization: { ...authorization, resource: "http://127.0.0.1:3000/mcp" } })).not.toThrow();
    expect(() => createHttpHandler(handler, { authorization, verifyToken: () => null })).toThrow(/either authorization or the deprecated/);
  });
});
