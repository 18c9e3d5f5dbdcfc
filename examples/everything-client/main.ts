/**
 * The "everything" client: what the MCP conformance suite's client
 * scenarios (2026-07-28 and 2025-11-25) expect a client to do, written with
 * the public API of mcp-roundtrip only.
 *
 *   node dist/examples/everything-client/main.js <server-url>
 *
 * The scenario name comes from MCP_CONFORMANCE_SCENARIO and its extra data
 * (if any) from MCP_CONFORMANCE_CONTEXT, as the conformance runner sets them.
 * Progress goes to stderr; the exit code says whether the client itself hit
 * an error.
 */
import { Client, type ClientOptions, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { OAuthClient } from "mcp-roundtrip/ext/oauth";

type Json = Record<string, unknown>;
type Tool = { name: string; inputSchema?: Json };

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Json;
const log = (...parts: unknown[]) => console.error(`[everything-client:${scenario}]`, ...parts);

// The runner names the protocol version to speak, and the lifecycle follows from it: pinning the
// version gives the 2025 initialize handshake for a dated 2025 revision, per-request _meta for 2026-07-28.
const PINNABLE = ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"] as const;
const requestedVersion = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION;
const mode: ClientOptions["mode"] = PINNABLE.find((version) => version === requestedVersion) ?? "auto";

const options: ClientOptions = {
  clientInfo: { name: "mcp-roundtrip-everything-client", version: "1.0.0" },
  mode,
  // Answer every kind of input request, so every capability is declared.
  onElicit: (params) => {
    const schema = (params as { requestedSchema?: { properties?: Record<string, { type?: string; default?: unknown }> } }).requestedSchema;
    const content: Record<string, string | number | boolean | string[]> = {};
    for (const [key, property] of Object.entries(schema?.properties ?? {})) {
      const fallback = property.type === "boolean" ? true : property.type === "number" || property.type === "integer" ? 1 : `test-${key}`;
      content[key] = (property.default as string | number | boolean | undefined) ?? fallback;
    }
    return { action: "accept", content };
  },
  onSample: () => ({ role: "assistant", content: { type: "text", text: "Sampled by the everything client." }, model: "test-model", stopReason: "endTurn" }),
  onListRoots: () => ({ roots: [{ uri: "file:///tmp/everything-client", name: "Scratch" }] }),
};

/** Arguments that satisfy a tool's required properties, for tools the scenario gives no arguments for. */
function argumentsFor(tool: Tool): Json {
  const schema = tool.inputSchema ?? {};
  const properties = (schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const args: Json = {};
  for (const name of required) {
    const type = properties[name]?.type;
    args[name] = type === "integer" || type === "number" ? 1 : type === "boolean" ? true : type === "object" ? {} : type === "array" ? [] : "us-west1";
  }
  return args;
}

/** The client ID metadata document URL the conformance authorization servers accept without fetching it. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/**
 * The OAuth client of the auth/* scenarios. The user step follows the
 * authorization URL with a plain fetch: the conformance authorization server
 * answers at once with a redirect to the callback, code and state in its query.
 */
async function oauthClient(): Promise<OAuthClient> {
  const clientId = typeof context.client_id === "string" ? context.client_id : undefined;
  const clientSecret = typeof context.client_secret === "string" ? context.client_secret : undefined;
  // auth/client-credentials-jwt hands over a PKCS#8 PEM key (ES256) for private_key_jwt.
  const pem = typeof context.private_key_pem === "string" ? context.private_key_pem : undefined;
  const privateKey = pem
    ? await crypto.subtle.importKey(
        "pkcs8",
        Uint8Array.from(atob(pem.replace(/-----[^-]+-----|\s/g, "")), (c) => c.charCodeAt(0)),
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["sign"],
      )
    : undefined;
  return new OAuthClient({
    grant: scenario.startsWith("auth/client-credentials") ? "client_credentials" : "authorization_code",
    redirectUrl: "http://localhost:3000/callback",
    authorize: async (authorizationUrl) => {
      const response = await fetch(authorizationUrl, { redirect: "manual" });
      await response.body?.cancel();
      const location = response.headers.get("location");
      if (location === null) throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
      return new URL(location, authorizationUrl);
    },
    ...(clientId !== undefined
      ? { client: { clientId, ...(clientSecret !== undefined ? { clientSecret } : {}), ...(privateKey !== undefined ? { privateKey } : {}) } }
      : {}),
    clientMetadataUrl: CLIENT_METADATA_URL,
    registration: { client_name: "mcp-roundtrip-everything-client" },
    onLog: (line) => log(line),
  });
}

async function run(target: string): Promise<void> {
  const auth = scenario.startsWith("auth/");
  const client = await Client.connect(auth ? new StreamableHttpClientTransport(target, { auth: await oauthClient() }) : target, options);
  try {
    if (auth) {
      // List, then call: a tool call may need more scope than listing (auth/scope-step-up).
      const tools = await client.listAllTools();
      log(`listed ${tools.length} tool(s)`);
      if (tools.some((tool) => tool.name === "test-tool")) await client.callTool("test-tool", {});
      return;
    }
    switch (scenario) {
      case "tools_call": {
        await client.listAllTools();
        const result = await client.callTool("add_numbers", { a: 5, b: 3 });
        log("add_numbers →", JSON.stringify(result.content));
        break;
      }
      case "sep-2322-client-request-state": {
        const tools = (await client.listAllTools()).map((tool) => tool.name);
        // The echo-state call and an unrelated call run side by side: their rounds must not mix.
        await Promise.all(["test_mrtr_echo_state", "test_mrtr_unrelated"].filter((name) => tools.includes(name)).map((name) => client.callTool(name, {})));
        for (const name of ["test_mrtr_no_state", "test_mrtr_no_result_type"]) {
          if (tools.includes(name)) await client.callTool(name, {});
        }
        break;
      }
      case "http-standard-headers": {
        for (const tool of await client.listAllTools()) await client.callTool(tool.name, argumentsFor(tool as Tool));
        for (const resource of await client.listAllResources()) await client.readResource(resource.uri);
        for (const prompt of await client.listAllPrompts()) await client.getPrompt(prompt.name, {});
        break;
      }
      case "http-custom-headers": {
        await client.listAllTools();
        const calls = (context.toolCalls ?? []) as Array<{ name: string; arguments: Json }>;
        for (const call of calls) await client.callTool(call.name, call.arguments as never);
        break;
      }
      case "http-invalid-tool-headers": {
        // Tools with invalid x-mcp-header annotations never reach this list.
        for (const tool of await client.listAllTools()) await client.callTool(tool.name, argumentsFor(tool as Tool));
        break;
      }
      case "elicitation-sep1034-client-defaults": {
        // The server asks (2025: over the call's response stream) with defaults for every field; onElicit applies them.
        await client.listAllTools();
        const result = await client.callTool("test_client_elicitation_defaults", {});
        log("elicitation defaults →", JSON.stringify(result.content));
        break;
      }
      case "sse-retry": {
        // The server closes the call's response stream early; the transport resumes it with GET and Last-Event-ID.
        await client.listAllTools();
        const result = await client.callTool("test_reconnection", {});
        log("test_reconnection →", JSON.stringify(result.content));
        break;
      }
      case "json-schema-2020-12-preservation": {
        // Hand the focal tool's inputSchema back verbatim, so the scenario can see what parsing kept.
        const tools = await client.listAllTools();
        const focal = tools.find((tool) => tool.name === "json_schema_2020_12_tool");
        if (focal) await client.callTool("json_schema_echo", { schema: focal.inputSchema as never });
        break;
      }
      default: {
        const tools = await client.listAllTools();
        log(`listed ${tools.length} tool(s)`);
      }
    }
  } finally {
    await client.close();
  }
}

if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: everything-client <server-url>  (MCP_CONFORMANCE_SCENARIO names the scenario)");
  process.exit(2);
}
try {
  await run(url);
} catch (error) {
  log("failed:", error instanceof Error ? error.message : error);
  process.exit(1);
}
