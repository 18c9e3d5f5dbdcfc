import { describe, expect, it } from "vitest";
import { Client } from "mcp-roundtrip/client";
import { createEverythingServer } from "../../examples/everything-server/server.js";

// The tools the 2025-11-25 conformance scenarios call declare their needs, so
// the same handlers also answer a 2026-07-28 client through InputRequiredResult
// rounds: these tests drive them in memory with the SDK's own client.

describe("everything-server: needs-based tools over 2026-07-28", () => {
  it("test_elicitation asks with the caller's message and reports the answer", async () => {
    const asked: unknown[] = [];
    const client = await Client.connect(createEverythingServer(), {
      onElicit: (params) => {
        asked.push(params);
        return { action: "accept", content: { username: "testuser", email: "test@example.com" } };
      },
    });
    try {
      const result = await client.callTool("test_elicitation", { message: "Please provide your information" });
      expect(result.content).toEqual([{ type: "text", text: 'User response: action=accept, content={"username":"testuser","email":"test@example.com"}' }]);
      expect(asked).toEqual([
        expect.objectContaining({
          message: "Please provide your information",
          requestedSchema: expect.objectContaining({ required: ["username", "email"] }),
        }),
      ]);
    } finally {
      await client.close();
    }
  });

  it("test_sampling sends the prompt to the client's model and quotes the reply", async () => {
    const prompts: string[] = [];
    const client = await Client.connect(createEverythingServer(), {
      onSample: (params) => {
        const first = params.messages[0]?.content;
        if (first !== undefined && !Array.isArray(first) && first.type === "text") prompts.push(first.text);
        return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model", stopReason: "endTurn" };
      },
    });
    try {
      const result = await client.callTool("test_sampling", { prompt: "What is the capital of France?" });
      expect(result.content).toEqual([{ type: "text", text: "LLM response: Paris" }]);
      expect(prompts).toEqual(["What is the capital of France?"]);
    } finally {
      await client.close();
    }
  });

  it("test_elicitation_sep1034_defaults offers a default for every primitive type", async () => {
    let schema: Record<string, { type?: string; default?: unknown }> = {};
    const client = await Client.connect(createEverythingServer(), {
      onElicit: (params) => {
        schema = (params as { requestedSchema: { properties: typeof schema } }).requestedSchema.properties;
        return { action: "decline" };
      },
    });
    try {
      const result = await client.callTool("test_elicitation_sep1034_defaults", {});
      expect(result.content).toEqual([{ type: "text", text: "Elicitation completed: action=decline, content={}" }]);
      expect(Object.fromEntries(Object.entries(schema).map(([field, { type, default: value }]) => [field, [type, value]]))).toEqual({
        name: ["string", "John Doe"],
        age: ["integer", 30],
        score: ["number", 95.5],
        status: ["string", "active"],
        verified: ["boolean", true],
      });
    } finally {
      await client.close();
    }
  });

  it("test_elicitation_sep1330_enums accepts a choice from each of the five enum shapes", async () => {
    const choices = {
      untitledSingle: "option1",
      titledSingle: "value1",
      legacyEnum: "opt1",
      untitledMulti: ["option1", "option2"],
      titledMulti: ["value1", "value2"],
    };
    const client = await Client.connect(createEverythingServer(), { onElicit: () => ({ action: "accept", content: choices }) });
    try {
      const result = await client.callTool("test_elicitation_sep1330_enums", {});
      expect(result.content).toEqual([{ type: "text", text: `Elicitation completed: action=accept, content=${JSON.stringify(choices)}` }]);
    } finally {
      await client.close();
    }
  });

  it("test_touch_watched_resource changes test://watched-resource", async () => {
    const client = await Client.connect(createEverythingServer());
    try {
      const before = await client.readResource("test://watched-resource");
      await client.callTool("test_touch_watched_resource", {});
      const after = await client.readResource("test://watched-resource");
      expect(before.contents).toEqual([{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource, version 0" }]);
      expect(after.contents).toEqual([{ uri: "test://watched-resource", mimeType: "text/plain", text: "Watched resource, version 1" }]);
    } finally {
      await client.close();
    }
  });

  it("the logging tool stays silent unless the request asks for logs", async () => {
    const heard: unknown[] = [];
    const client = await Client.connect(createEverythingServer(), { onNotification: (notification) => heard.push(notification.method) });
    try {
      await client.callTool("test_tool_with_logging", {});
      expect(heard).toEqual([]);
      await client.callTool("test_tool_with_logging", {}, { meta: { "io.modelcontextprotocol/logLevel": "info" } });
      expect(heard).toEqual(["notifications/message", "notifications/message", "notifications/message"]);
    } finally {
      await client.close();
    }
  });
});
