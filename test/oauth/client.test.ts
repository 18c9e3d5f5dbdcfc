// The OAuth client against a real authorization server process-double and
// this SDK's own protected server (serveHttp with verifyToken and a
// WWW-Authenticate challenge): the flow, refresh, step-up, client
// credentials, and every kind of bad input, each with a clear error and
// with no token, code, verifier or secret in any log line or error.
import { KeyObject } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { InMemoryOAuthStore, OAuthClient, OAuthError, type OAuthClientOptions } from "mcp-roundtrip/ext/oauth";
import { McpServer } from "mcp-roundtrip/server";
import { listToolsWithOAuth } from "../../examples/oauth/cli.js";
import { startAuthServer, type FakeAuthServer, type FakeAuthServerOptions } from "./fixtures/auth-server.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/** The user step of a browser that follows the authorization server's redirect without showing anything. */
async function followRedirect(url: URL): Promise<URL> {
  const response = await fetch(url, { redirect: "manual" });
  await response.body?.cancel();
  return new URL(response.headers.get("location")!);
}

interface Setup {
  as: FakeAuthServer;
  http: HttpServerHandle;
  auth: OAuthClient;
  logs: string[];
  authorizeCalls: URL[];
  connect(): Promise<Client>;
}

const open: Array<() => Promise<void>> = [];
let consoleLines: string[] = [];

afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of open.splice(0).reverse()) await close();
});

async function setup(
  asOptions: FakeAuthServerOptions = {},
  clientOptions: Partial<OAuthClientOptions> = {},
  serverOptions: { requiredScopes?: string[]; refuseEveryToken?: boolean } = {},
): Promise<Setup> {
  consoleLines = [];
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, level).mockImplementation((...parts: unknown[]) => void consoleLines.push(parts.map(String).join(" ")));
  }
  const as = await startAuthServer(asOptions);
  open.push(() => as.close());
  const mcp = new McpServer({ name: "protected", version: "1.0.0" });
  mcp.tool("whoami", { inputSchema: { type: "object" } }, (_args, ctx) => ({
    content: [{ type: "text", text: `scopes: ${ctx.authInfo?.scopes.join(" ") || "none"}` }],
  }));
  const http = await serveHttp(mcp, {
    verifyToken: (token) => (serverOptions.refuseEveryToken ? null : as.verify(token)),
    resourceMetadataUrl: as.prmUrl,
    ...(serverOptions.requiredScopes ? { requiredScopes: serverOptions.requiredScopes } : {}),
  });
  open.push(() => http.close());
  as.resource = http.url;
  const logs: string[] = [];
  const authorizeCalls: URL[] = [];
  const auth = new OAuthClient({
    redirectUrl: REDIRECT,
    authorize: async (url) => {
      authorizeCalls.push(url);
      return followRedirect(url);
    },
    onLog: (line) => logs.push(line),
    ...clientOptions,
  });
  return {
    as,
    http,
    auth,
    logs,
    authorizeCalls,
    async connect() {
      const client = await Client.connect(new StreamableHttpClientTransport(http.url, { auth }), { clientInfo: { name: "oauth-test", version: "1.0.0" } });
      open.push(() => client.close());
      return client;
    },
  };
}

/** Runs `work`, expecting an OAuthError; returns it after checking that neither it nor any log holds a secret. */
async function expectOAuthError(setup: Setup, work: () => Promise<unknown>, code: string): Promise<OAuthError> {
  const error = await work().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, "an OAuthError").toBeInstanceOf(OAuthError);
  expect((error as OAuthError).code).toBe(code);
  expectNoSecrets(setup, [error]);
  return error as OAuthError;
}

/** No secret the authorization server issued or received appears in the client's log lines, the console, or the given values. */
function expectNoSecrets(setup: Setup, values: unknown[] = []) {
  const seen = [
    ...setup.logs,
    ...consoleLines,
    ...values.map((value) =>
      value instanceof Error ? `${value.message}\n${value.stack}\n${JSON.stringify(value)}\n${String(value.cause)}` : JSON.stringify(value),
    ),
  ].join("\n");
  for (const secret of setup.as.secrets) expect(seen).not.toContain(secret);
}

const callWhoami = async (client: Client) => {
  const result = await client.callTool("whoami", {});
  return (result.content[0] as { text: string }).text;
};

describe("the authorization code flow", () => {
  it("registers, authorizes with PKCE S256, state and resource, and calls the protected server", async () => {
    const s = await setup({ resourceScopes: ["mcp:read"] });
    const client = await s.connect();
    expect(await callWhoami(client)).toBe("scopes: mcp:read");
    expect(s.authorizeCalls).toHaveLength(1);
    const query = s.authorizeCalls[0]!.searchParams;
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("resource")).toBe(s.http.url);
    expect(query.get("scope")).toBe("mcp:read");
    expect(query.get("state")).toMatch(/^[\w-]{20,}$/);
    const token = s.as.requests.find((request) => request.path === "/token")!;
    expect(token.params).toMatchObject({ grant_type: "authorization_code", resource: s.http.url, redirect_uri: REDIRECT });
    const registration = s.as.requests.find((request) => request.path === "/register")!;
    expect(registration.params).toMatchObject({ redirect_uris: [REDIRECT], application_type: "native" });
    expect(s.logs.some((line) => line.includes("token obtained"))).toBe(true);
    // A client secret, a code, a verifier, an access and a refresh token went by: none may show.
    expect(s.as.secrets.size).toBeGreaterThanOrEqual(5);
    expectNoSecrets(s);
  });

  it("authorizes once for concurrent requests that are refused together", async () => {
    const s = await setup();
    const client = await s.connect();
    await Promise.all([callWhoami(client), callWhoami(client), client.listTools()]);
    expect(s.authorizeCalls).toHaveLength(1);
  });

  it("steps up on 403 insufficient_scope, asking for the union of the scopes", async () => {
    const s = await setup({ resourceScopes: ["mcp:read"] }, {}, { requiredScopes: ["mcp:read", "mcp:write"] });
    const client = await s.connect();
    expect(await callWhoami(client)).toBe("scopes: mcp:read mcp:write");
    expect(s.authorizeCalls.map((url) => url.searchParams.get("scope"))).toEqual(["mcp:read", "mcp:read mcp:write"]);
  });

  it("reuses a stored registration, and registers again for another redirect URI (a new loopback port)", async () => {
    const store = new InMemoryOAuthStore();
    const s = await setup({}, { store });
    await callWhoami(await s.connect());
    await s.auth.forget(s.http.url);
    const again = new OAuthClient({ store, redirectUrl: REDIRECT, authorize: followRedirect });
    const client = await Client.connect(new StreamableHttpClientTransport(s.http.url, { auth: again }));
    open.push(() => client.close());
    await callWhoami(client);
    expect(s.as.requests.filter((request) => request.path === "/register")).toHaveLength(1);
    await again.forget(s.http.url);
    const moved = new OAuthClient({ store, redirectUrl: "http://127.0.0.1:10/callback", authorize: followRedirect });
    const third = await Client.connect(new StreamableHttpClientTransport(s.http.url, { auth: moved }));
    open.push(() => third.close());
    await callWhoami(third);
    expect(s.as.requests.filter((request) => request.path === "/register")).toHaveLength(2);
  });

  it("uses a pre-registered client before registering", async () => {
    const s = await setup({}, { client: { clientId: "pre", clientSecret: "pre-secret" } });
    await callWhoami(await s.connect());
    expect(s.as.requests.some((request) => request.path === "/register")).toBe(false);
    expect(s.authorizeCalls[0]!.searchParams.get("client_id")).toBe("pre");
    const token = s.as.requests.find((request) => request.path === "/token")!;
    expect(Buffer.from(token.authorization!.slice(6), "base64").toString()).toBe("pre:pre-secret");
  });

  it("passes over a listed authorization server that cannot be reached", async () => {
    const s = await setup({ listedBefore: ["http://127.0.0.1:1"] });
    expect(await callWhoami(await s.connect())).toBe("scopes: none");
    expect(s.logs.some((line) => line.includes("Trying the next authorization server"))).toBe(true);
  });

  it("refuses a pre-registered client bound to another issuer", async () => {
    const s = await setup({}, { client: { clientId: "pre", issuer: "https://other-as.example" } });
    const error = await expectOAuthError(s, () => s.connect(), "no_client");
    expect(error.message).toContain("https://other-as.example");
    expect(s.authorizeCalls).toHaveLength(0);
  });
});

describe("a full-page redirect (authorize resolves with nothing)", () => {
  it("fails the call with authorization_pending, and finishAuthorization on the page the user returns to completes it", async () => {
    let shown: URL | undefined;
    const s = await setup({}, { authorize: async (url) => void (shown = url) });
    const first = await expectOAuthError(s, () => s.connect(), "authorization_pending");
    expect(first.message).toContain("finishAuthorization");
    // The browser goes to the authorization server and comes back to the redirect URI.
    const returned = await followRedirect(shown!);
    await s.auth.finishAuthorization(returned.href);
    expect(await callWhoami(await s.connect())).toBe("scopes: none");
    // A response finishes once: the same one again is refused before anything is exchanged.
    const tokenRequests = s.as.requests.filter((request) => request.path === "/token").length;
    await expectOAuthError(s, () => s.auth.finishAuthorization(returned.href), "state_mismatch");
    expect(s.as.requests.filter((request) => request.path === "/token")).toHaveLength(tokenRequests);
    expectNoSecrets(s);
  });

  it("refuses a returning URL whose state no pending authorization has", async () => {
    let shown: URL | undefined;
    const s = await setup({}, { authorize: async (url) => void (shown = url) });
    await expectOAuthError(s, () => s.connect(), "authorization_pending");
    const returned = await followRedirect(shown!);
    returned.searchParams.set("state", "forged");
    await expectOAuthError(s, () => s.auth.finishAuthorization(returned), "state_mismatch");
    expect(s.as.requests.some((request) => request.path === "/token")).toBe(false);
  });

  it("says what is missing when the store cannot keep the authorization", async () => {
    const inMemory = new InMemoryOAuthStore();
    const store = {
      getTokens: (resource: string) => inMemory.getTokens(resource),
      setTokens: (resource: string, tokens: Parameters<InMemoryOAuthStore["setTokens"]>[1]) => inMemory.setTokens(resource, tokens),
      getClient: (issuer: string) => inMemory.getClient(issuer),
      setClient: (issuer: string, registration: Parameters<InMemoryOAuthStore["setClient"]>[1]) => inMemory.setClient(issuer, registration),
    };
    const s = await setup({}, { store, authorize: async () => undefined });
    expect((await expectOAuthError(s, () => s.connect(), "authorization_pending")).message).toContain("setPending and getPending");
  });
});

describe("giving up", () => {
  it("stops when the server refuses a token it just got: one authorization, then the 401", async () => {
    const s = await setup({}, {}, { refuseEveryToken: true });
    const error = await s.connect().then(
      () => undefined,
      (caught: unknown) => caught as Error & { status?: number },
    );
    expect(error?.name).toBe("HttpTransportError");
    expect(error?.status).toBe(401);
    expect(s.authorizeCalls).toHaveLength(1);
    expectNoSecrets(s, [error]);
  });

  it("asks the user again when a just-refreshed token is refused", async () => {
    const s = await setup();
    const client = await s.connect();
    await callWhoami(client);
    // The server refuses the stored token and then the refreshed one; a new authorization gets through.
    const verify = s.as.verify.bind(s.as);
    let refusals = 2;
    s.as.verify = (token) => (refusals-- > 0 ? null : verify(token));
    expect(await callWhoami(client)).toBe("scopes: none");
    expect(s.as.requests.filter((request) => request.params.grant_type === "refresh_token")).toHaveLength(1);
    expect(s.authorizeCalls).toHaveLength(2);
  });
});

describe("refresh tokens", () => {
  it("refreshes an expiring access token before sending it, without asking the user again", async () => {
    const s = await setup({ expiresIn: 5 });
    const client = await s.connect();
    await callWhoami(client);
    await callWhoami(client);
    expect(s.authorizeCalls).toHaveLength(1);
    expect(s.as.requests.filter((request) => request.params.grant_type === "refresh_token").length).toBeGreaterThan(0);
    for (const request of s.as.requests.filter((r) => r.params.grant_type === "refresh_token")) expect(request.params.resource).toBe(s.http.url);
    expectNoSecrets(s);
  });

  it("asks for the resource the metadata names, in the grant and in every refresh", async () => {
    const s = await setup({ expiresIn: 5 });
    s.as.resource = new URL(s.http.url).origin; // metadata for the whole origin covers /mcp
    const client = await s.connect();
    await callWhoami(client);
    await callWhoami(client);
    const resources = s.as.requests.filter((request) => request.path === "/token").map((request) => request.params.resource);
    expect(resources.length).toBeGreaterThanOrEqual(2);
    expect(new Set(resources)).toEqual(new Set([s.as.resource]));
    expect(s.authorizeCalls[0]!.searchParams.get("resource")).toBe(s.as.resource);
  });

  it("goes back to the user when the refresh token was revoked", async () => {
    const s = await setup();
    const client = await s.connect();
    await callWhoami(client);
    s.as.revokeAll();
    expect(await callWhoami(client)).toBe("scopes: none");
    expect(s.authorizeCalls).toHaveLength(2);
    expect(s.logs.some((line) => line.includes("refresh token was refused"))).toBe(true);
    expectNoSecrets(s);
  });

  it("fails with interaction_required when the refresh token was revoked and no user can be asked", async () => {
    const store = new InMemoryOAuthStore();
    const first = await setup({}, { store });
    const client = await first.connect();
    await callWhoami(client);
    first.as.revokeAll();
    const headless = new OAuthClient({ store, onLog: (line) => first.logs.push(line) });
    const transport = new StreamableHttpClientTransport(first.http.url, { auth: headless });
    open.push(() => transport.close());
    const error = await expectOAuthError(first, () => Client.connect(transport), "interaction_required");
    expect(error.message).toMatch(/refresh token was refused.*authorize callback/s);
  });
});

describe("client credentials", () => {
  it("gets a token for a machine client with its own credentials, no user step", async () => {
    const s = await setup(
      { resourceScopes: ["jobs"] },
      { grant: "client_credentials", client: { clientId: "machine", clientSecret: "machine-secret" }, authorize: undefined, redirectUrl: undefined },
    );
    expect(await callWhoami(await s.connect())).toBe("scopes: jobs");
    const token = s.as.requests.find((request) => request.path === "/token")!;
    expect(token.params).toMatchObject({ grant_type: "client_credentials", scope: "jobs", resource: s.http.url });
    expectNoSecrets(s);
  });

  it("authenticates a machine client with private_key_jwt instead of a secret", async () => {
    const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, false, ["sign", "verify"])) as CryptoKeyPair;
    const s = await setup(
      { jwtPublicKey: KeyObject.from(keys.publicKey) },
      { grant: "client_credentials", client: { clientId: "machine-jwt", privateKey: keys.privateKey }, authorize: undefined, redirectUrl: undefined },
    );
    expect(await callWhoami(await s.connect())).toBe("scopes: none");
    const token = s.as.requests.find((request) => request.path === "/token")!;
    expect(token.params).toMatchObject({ grant_type: "client_credentials", client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" });
    expect(token.authorization).toBeUndefined();
    expectNoSecrets(s);
  });

  it("reports refused client credentials without echoing the secret", async () => {
    const s = await setup({}, { grant: "client_credentials", client: { clientId: "machine", clientSecret: "wrong-secret" } });
    const error = await expectOAuthError(s, () => s.connect(), "token_request_failed");
    expect(error.oauthError).toBe("invalid_client");
    expect(error.message).not.toContain("wrong-secret");
  });
});

describe("bad input: each a clear error, no secret in any log or message", () => {
  it("malformed authorization server metadata", async () => {
    const s = await setup({ metadata: "not-json" });
    const error = await expectOAuthError(s, () => s.connect(), "invalid_metadata");
    expect(error.message).toMatch(/is not JSON/);
  });

  it("protected resource metadata that names no authorization server", async () => {
    const s = await setup({ prm: "no-servers" });
    expect((await expectOAuthError(s, () => s.connect(), "invalid_metadata")).message).toContain('"authorization_servers"');
  });

  it("protected resource metadata for another resource", async () => {
    const s = await setup({ prm: "other-resource" });
    const error = await expectOAuthError(s, () => s.connect(), "resource_mismatch");
    expect(error.message).toContain("https://evil.example/mcp");
    expect(s.as.requests.some((request) => request.path.startsWith("/.well-known"))).toBe(false);
  });

  it("authorization server metadata without a token endpoint", async () => {
    const s = await setup({ metadata: "no-token-endpoint" });
    expect((await expectOAuthError(s, () => s.connect(), "invalid_metadata")).message).toContain('no "token_endpoint"');
  });

  it("the wrong issuer in the authorization server metadata", async () => {
    const s = await setup({ metadataIssuer: "https://attacker.example" });
    const error = await expectOAuthError(s, () => s.connect(), "issuer_mismatch");
    expect(error.message).toContain("https://attacker.example");
    expect(s.authorizeCalls).toHaveLength(0);
    expect(s.as.requests.some((request) => request.path === "/register")).toBe(false);
  });

  it("an authorization server without PKCE S256", async () => {
    for (const pkce of [null, ["plain"]]) {
      const s = await setup({ pkce });
      const error = await expectOAuthError(s, () => s.connect(), "pkce_unsupported");
      expect(error.message).toContain("S256");
      expect(s.authorizeCalls).toHaveLength(0);
    }
  });

  it("a state mismatch: the code is never exchanged", async () => {
    const s = await setup({ state: "tampered" });
    await expectOAuthError(s, () => s.connect(), "state_mismatch");
    expect(s.as.requests.some((request) => request.path === "/token")).toBe(false);
  });

  it("an iss that names another authorization server (RFC 9207)", async () => {
    const s = await setup({ iss: "wrong" });
    await expectOAuthError(s, () => s.connect(), "iss_mismatch");
    expect(s.as.requests.some((request) => request.path === "/token")).toBe(false);
  });

  it("no authorize callback when a user must authorize", async () => {
    const s = await setup({}, { authorize: undefined });
    const error = await expectOAuthError(s, () => s.connect(), "interaction_required");
    expect(error.message).toContain("loopbackAuthorization");
  });

  it("no way to identify the client", async () => {
    const s = await setup({ registration: false }, { registration: false });
    expect((await expectOAuthError(s, () => s.connect(), "no_client")).message).toContain("clientId");
  });
});

describe("OAuthClient options", () => {
  it.each([
    [{ grant: "password" }, /grant must be/],
    [{ authorize: async () => REDIRECT, name: "authorize without redirectUrl" }, /needs a redirectUrl/],
    [{ grant: "client_credentials" }, /needs client/],
    [{ clientMetadataUrl: "http://app.example/client.json" }, /https URL with a path/],
    [{ clientMetadataUrl: "https://app.example" }, /https URL with a path/],
    [{ redirectUrl: "not a url" }, /absolute URL/],
    [{ redirectUrl: "http://app.example/callback" }, /https, or http on a loopback host/],
    [{ redirectUrl: "myapp:/callback" }, /https, or http on a loopback host/],
  ])("rejects %j", (options, message) => {
    expect(() => new OAuthClient(options as OAuthClientOptions)).toThrow(message);
  });

  it("is refused next to a token on the transport", () => {
    expect(() => new StreamableHttpClientTransport("http://127.0.0.1:1/mcp", { token: "t", auth: new OAuthClient() })).toThrow(/either token or auth/);
  });
});

describe("examples/oauth/cli.ts", () => {
  it("authorizes through the loopback listener, the browser being a fetch that follows the redirects", async () => {
    const s = await setup();
    const store = new InMemoryOAuthStore();
    const browser = async (url: URL) => {
      // The authorization server redirects to the loopback callback; the listener answers with its page.
      const page = await fetch(url);
      expect(await page.text()).toContain("Authorization complete");
    };
    expect(await listToolsWithOAuth(s.http.url, browser, store)).toEqual(["whoami"]);
    const authorize = s.as.requests.find((request) => request.path === "/authorize")!;
    expect(authorize.params.redirect_uri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(store.getTokens(s.http.url)?.accessToken).toMatch(/^at-/);
    expectNoSecrets(s);
  });
});
