/**
 * OAuth 2.1 for MCP clients (MCP 2026-07-28 and 2025-11-25 authorization):
 * an {@link OAuthClient} to pass as the Streamable HTTP transport's `auth`.
 * Browser-safe: no `node:` imports; the loopback redirect listener for CLIs
 * is in `mcp-roundtrip/ext/oauth/node`.
 *
 * @example
 * ```ts
 * import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
 * import { OAuthClient } from "mcp-roundtrip/ext/oauth";
 *
 * const auth = new OAuthClient({
 *   redirectUrl: "https://app.example.com/oauth/callback",
 *   authorize: (url) => openPopupAndWaitForRedirect(url),
 *   clientMetadataUrl: "https://app.example.com/oauth/client.json",
 * });
 * const client = await Client.connect(new StreamableHttpClientTransport("https://mcp.example.com/mcp", { auth }));
 * ```
 *
 * @packageDocumentation
 */
export { OAuthClient, type OAuthClientOptions, type AuthorizeCallback, type PreRegisteredClient } from "./client.js";
export { OAuthError, type OAuthErrorCode } from "./errors.js";
export {
  InMemoryOAuthStore,
  type OAuthStore,
  type OAuthTokens,
  type OAuthClientRegistration,
  type PendingAuthorization,
  type Awaitable,
} from "./store.js";
