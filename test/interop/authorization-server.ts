// A real OAuth 2.1 authorization server for the interop tests: oidc-provider
// on loopback, issuing JWT access tokens for one resource (RFC 8707 resource
// indicators), with dynamic client registration and PKCE, and a scripted
// user who logs in and consents to whatever is asked.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";

/** A running authorization server. */
export interface LocalAuthorizationServer {
  /** The issuer identifier, e.g. `http://127.0.0.1:41234`. */
  issuer: string;
  /** Who logs in next (the `sub` of the tokens issued after it). */
  subject: string;
  /** Plays the user agent: follows an authorization URL through login and consent; resolves the redirect back to the client. */
  authorize(url: URL | string): Promise<URL>;
  /** Requests the server received, as `METHOD /path`, in order. */
  readonly requests: string[];
  /**
   * Gets a real access token the plain way (register, authorize with PKCE,
   * exchange the code) for `resource`, to hand to a server directly.
   */
  issueToken(resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

/** Options of {@link startAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** The resource (MCP server canonical URI) tokens are issued for by default. */
  resource: string;
  /** Further resources the server issues tokens for. */
  otherResources?: readonly string[];
  /** Scopes the resource server defines. */
  scopes: readonly string[];
  /** Pre-registered clients, in oidc-provider's client metadata form. */
  clients?: Record<string, unknown>[];
}

/** A free loopback port (the MCP server's resource URI must name it before it listens). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function cookiesOf(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const at = pair!.indexOf("=");
    jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
  }
}

/** Starts oidc-provider on 127.0.0.1 with a fresh ES256 signing key. */
export async function startAuthorizationServer(options: AuthorizationServerOptions): Promise<LocalAuthorizationServer> {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signing = { ...(await exportJWK(privateKey)), kid: "as-key-1", alg: "ES256", use: "sig" };
  const requests: string[] = [];
  let provider: Provider | undefined;
  let providerCallback: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const state = { subject: "alice" };

  const interact = async (request: IncomingMessage, response: ServerResponse) => {
    const details = await provider!.interactionDetails(request, response);
    if (details.prompt.name === "login") {
      await provider!.interactionFinished(request, response, { login: { accountId: state.subject } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant =
      (details.grantId ? await provider!.Grant.find(details.grantId) : undefined) ??
      new provider!.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
    for (const scope of missing.missingOIDCScope ?? []) grant.addOIDCScope(scope);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      for (const scope of scopes) grant.addResourceScope(resource, scope);
    }
    await provider!.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  };

  const http = createServer((request, response) => {
    requests.push(`${request.method} ${(request.url ?? "/").split("?")[0]}`);
    if (request.url?.startsWith("/interaction/")) {
      interact(request, response).catch((error: unknown) => {
        response.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      });
      return;
    }
    providerCallback!(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  provider = new Provider(issuer, {
    clients: options.clients ?? [],
    jwks: { keys: [signing] },
    cookies: { keys: ["interop-cookie-key-0123456789abcdef"] },
    scopes: ["openid", "offline_access", ...options.scopes],
    findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id }) }),
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    ttl: { AccessToken: 300, AuthorizationCode: 60, Grant: 3600, Interaction: 600, Session: 3600, RefreshToken: 3600 },
    clientDefaults: { id_token_signed_response_alg: "ES256", grant_types: ["authorization_code"], response_types: ["code"] },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string) => oneOf ?? options.resource,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== options.resource && !options.otherResources?.includes(indicator)) throw new Error(`unknown resource ${indicator}`);
          return { scope: options.scopes.join(" "), audience: indicator, accessTokenTTL: 300, accessTokenFormat: "jwt", jwt: { sign: { alg: "ES256" } } };
        },
      },
    },
  });
  providerCallback = provider.callback();

  const server: LocalAuthorizationServer = {
    issuer,
    get subject() {
      return state.subject;
    },
    set subject(value: string) {
      state.subject = value;
    },
    requests,
    async authorize(url) {
      const jar = new Map<string, string>();
      let current = new URL(url);
      for (let hop = 0; hop < 12; hop++) {
        const response = await fetch(current, {
          redirect: "manual",
          headers: jar.size === 0 ? {} : { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") },
        });
        cookiesOf(response, jar);
        const location = response.headers.get("location");
        if (location === null) throw new Error(`the authorization server answered ${response.status} without a redirect: ${await response.text()}`);
        await response.body?.cancel();
        const next = new URL(location, current);
        if (next.origin !== issuer) return next;
        current = next;
      }
      throw new Error("too many redirects at the authorization server");
    },
    async issueToken(resource, scope) {
      const redirect = "http://127.0.0.1:9/direct";
      const registered = await fetch(`${issuer}/reg`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ redirect_uris: [redirect], token_endpoint_auth_method: "none", grant_types: ["authorization_code"], response_types: ["code"] }),
      });
      const { client_id } = (await registered.json()) as { client_id: string };
      const verifier = randomBytes(32).toString("base64url");
      const authorization = new URL(`${issuer}/auth`);
      for (const [name, value] of Object.entries({
        client_id,
        redirect_uri: redirect,
        response_type: "code",
        scope,
        resource,
        state: "s",
        code_challenge: createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      })) {
        authorization.searchParams.set(name, value);
      }
      const code = (await server.authorize(authorization)).searchParams.get("code");
      if (!code) throw new Error("the authorization server returned no code");
      const exchanged = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirect, client_id, code_verifier: verifier, resource }),
      });
      const body = (await exchanged.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no access token: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
  return server;
}
