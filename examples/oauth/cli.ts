// docs/authorization.md "Client": a command-line client of an OAuth-protected
// MCP server. The loopback listener receives the authorization server's
// redirect; `open` shows the authorization URL to the user (a browser).
import { Client, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { OAuthClient, type OAuthStore } from "mcp-roundtrip/ext/oauth";
import { loopbackAuthorization } from "mcp-roundtrip/ext/oauth/node"; // CLIs on Node

/** Connects to `url`, authorizing through the user's browser (`open`), and lists the server's tools. */
export async function listToolsWithOAuth(url: string, open: (authorizationUrl: URL) => Promise<void>, store?: OAuthStore): Promise<string[]> {
  // Listens on http://127.0.0.1:<port>/callback; `open` shows the URL to the user (default: printed on stderr).
  const loopback = await loopbackAuthorization({ open });
  const auth = new OAuthClient({
    redirectUrl: loopback.redirectUrl,
    authorize: loopback.authorize, // resolves with the redirect the browser brings back
    registration: { client_name: "my-cli" },
    ...(store ? { store } : {}),
  });
  try {
    const client = await Client.connect(new StreamableHttpClientTransport(url, { auth }));
    try {
      return (await client.listAllTools()).map((tool) => tool.name);
    } finally {
      await client.close();
    }
  } finally {
    await loopback.close();
  }
}
