// The everything-server's needs-based tools in a 2025-11-25 session, driven
// in process by the official SDK 1.32.2 client (the generation that opens a
// session with `initialize` and answers the server's own requests): the same
// handlers as over 2026-07-28, the questions now sent as real requests.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../client/ensure-built.js";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "mcp-roundtrip/server";
import { createEverythingServer } from "../../examples/everything-server/server.js";

/** Carries the official client's messages into one session of `server`, and the session's back to it. */
class SessionTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  /** What `initialize` agreed, as the official client reports it. */
  protocolVersion: string | undefined;
  private readonly session;

  constructor(server: McpServer) {
    this.session = server.openSession({ send: (message) => this.deliver(message) });
  }

  async start(): Promise<void> {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Not awaited: a tools/call stays open while the client answers the session's own requests.
    const related = { sendRelated: (reply: unknown) => this.deliver(reply), sendNotification: (reply: unknown) => this.deliver(reply) };
    void this.session.handle(message, related).then((response) => {
      if (response !== undefined) this.deliver(response);
    });
  }

  async close(): Promise<void> {
    this.session.close();
    this.onclose?.();
  }

  private deliver(message: unknown): void {
    queueMicrotask(() => this.onmessage?.(message as JSONRPCMessage));
  }
}

const clients: LegacyClient[] = [];

async function connect(): Promise<{ client: LegacyClient; transport: SessionTransport }> {
  const client = new LegacyClient({ name: "legacy-test-client", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
  clients.push(client);
  const transport = new SessionTransport(createEverythingServer());
  await client.connect(transport);
  return { client, transport };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

describe("everything-server in a 2025-11-25 session (official SDK 1.32.2 client)", () => {
  it("negotiates 2025-11-25 and declares logging", async () => {
    const { client, transport } = await connect();
    expect(transport.protocolVersion).toBe("2025-11-25");
    expect(client.getServerVersion()?.name).toBe("mcp-roundtrip-everything-server");
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, logging: {} });
  });

  it("test_elicitation sends elicitation/create over the session and reports the answer", async () => {
    const { client } = await connect();
    const asked: unknown[] = [];
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: "accept", content: { username: "testuser", email: "test@example.com" } };
    });
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Please provide your information" } });
    expect(result.content).toEqual([{ type: "text", text: 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}' }]);
    expect(asked).toEqual([expect.objectContaining({ message: "Please provide your information" })]);
  });

  it("test_sampling sends sampling/createMessage over the session and quotes the reply", async () => {
    const { client } = await connect();
    client.setRequestHandler(CreateMessageRequestSchema, () => ({
      role: "assistant",
      content: { type: "text", text: "This is a test response from the client" },
      model: "test-model",
      stopReason: "endTurn",
    }));
    const result = await client.callTool({ name: "test_sampling", arguments: { prompt: "Test prompt for sampling" } });
    expect(result.content).toEqual([{ type: "text", text: "LLM response: This is a test response from the client" }]);
  });

  it("the logging tool follows logging/setLevel", async () => {
    const { client } = await connect();
    const levels: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void levels.push(notification.params.level));
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(levels).toEqual(["info", "info", "info"]);
  });

  it("a subscribed session hears test_touch_watched_resource's change, and stops after unsubscribing", async () => {
    const { client } = await connect();
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => void updated.push(notification.params.uri));
    await client.subscribeResource({ uri: "test://watched-resource" });
    await client.callTool({ name: "test_touch_watched_resource", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(updated).toEqual(["test://watched-resource"]);
    await client.unsubscribeResource({ uri: "test://watched-resource" });
    await client.callTool({ name: "test_touch_watched_resource", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(updated).toEqual(["test://watched-resource"]);
    const read = await client.readResource({ uri: "test://watched-resource" });
    expect(read.contents).toEqual([{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource, version 2" }]);
  });
});

describe("the built everything-server over stdio, to a 2025-11-25 client", () => {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const main = `${root}dist/examples/everything-server/main.js`;
  beforeAll(() => {
    // The example runs from the built package (its imports resolve through the package exports).
    if (!existsSync(main)) {
      const built = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: root, stdio: "inherit" });
      if (built.status !== 0) throw new Error("could not build dist/ for the stdio example");
    }
  }, 120_000);

  it.each(["--help", "-h"])("%s prints the usage and exits 0 without starting a server", (flag) => {
    ensureBuilt("examples/everything-server/main.js");
    const run = spawnSync(process.execPath, [main, flag], { encoding: "utf8", timeout: 10_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: node dist\/examples\/everything-server\/main\.js/);
    expect(run.stdout).toContain("--stdio");
    expect(run.stderr).not.toContain("MCP endpoint");
  });

  it("answers initialize, asks through elicitation/create mid-call, and logs at the level set", async () => {
    const client = new LegacyClient({ name: "legacy-stdio-client", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    clients.push(client);
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [main, "--stdio"], stderr: "ignore" }));
    const result = await client.callTool({ name: "test_elicitation", arguments: { message: "Who are you?" } });
    expect(result.content).toEqual([{ type: "text", text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' }]);
    await client.setLoggingLevel("info");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
  });
});
