// This SDK's client against @modelcontextprotocol/server-everything
// 2026.8.31, the reference 2025-era server, started through its package
// bin as its README says: `mcp-server-everything` (stdio, the default) and
// `mcp-server-everything streamableHttp` (HTTP on PORT). Its HTTP mode binds
// a port of its own choosing interface; the client only ever talks to
// 127.0.0.1.
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type ClientOptions, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { freePort, repoRoot, startProcess, stopProcess, waitFor } from "./peers.js";

const BIN = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const ROOTS = [{ uri: "file:///workspace/everything", name: "Everything workspace" }];

/** Callbacks that answer the way a user would, remembering what each was asked and when. */
function recording() {
  const elicited: Array<{ message: string; fields: string[]; key: string | undefined }> = [];
  const rootsAsked: Array<{ key: string | undefined; duringCall: boolean }> = [];
  const sampled: Array<{ prompt: string; maxTokens: number }> = [];
  let callsInFlight = 0;
  const options: ClientOptions = {
    onElicit: (params, context) => {
      const form = params as { message: string; requestedSchema: { properties: Record<string, unknown> } };
      elicited.push({ message: form.message, fields: Object.keys(form.requestedSchema.properties), key: context.key });
      return { action: "accept", content: { name: "Ada Lovelace", check: true, integer: 7 } };
    },
    onSample: (params) => {
      const first = params.messages[0]!.content as { text?: string };
      sampled.push({ prompt: first.text ?? "", maxTokens: params.maxTokens });
      return { role: "assistant", content: { type: "text", text: "sampled by the test" }, model: "test-model", stopReason: "endTurn" };
    },
    onListRoots: (_params, context) => {
      rootsAsked.push({ key: context.key, duringCall: callsInFlight > 0 });
      return { roots: ROOTS };
    },
  };
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    callsInFlight++;
    try {
      return await work();
    } finally {
      callsInFlight--;
    }
  };
  return { options, elicited, rootsAsked, sampled, call };
}

const texts = (result: { content: unknown[] }) => result.content.map((item) => (item as { text?: string }).text ?? "").join("\n");

/** What every run checks, whatever the wire. */
async function exercise(target: Parameters<typeof Client.connect>[0]) {
  const { options, elicited, rootsAsked, sampled, call } = recording();
  const client = await Client.connect(target, options);
  try {
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toMatchObject({ name: "mcp-servers/everything" });
    // It asks for roots about 350 ms after initialization, outside any call.
    await waitFor(() => rootsAsked.length > 0, "server-everything's roots/list");
    expect(rootsAsked).toEqual([{ key: undefined, duringCall: false }]);

    const tools = (await client.listAllTools()).map((tool) => tool.name);
    // The elicitation and roots tools exist only because the client declared those capabilities at initialize.
    expect(tools).toEqual(expect.arrayContaining(["echo", "get-sum", "trigger-elicitation-request", "trigger-sampling-request", "get-roots-list"]));
    expect(texts(await call(() => client.callTool("echo", { message: "hello, everything" })))).toBe("Echo: hello, everything");
    expect(texts(await call(() => client.callTool("get-sum", { a: 2, b: 3 })))).toMatch(/\b5\b/);

    const elicitation = await call(() => client.callTool("trigger-elicitation-request", {}));
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({ message: "Please provide inputs for the following fields:", key: undefined });
    expect(elicited[0]!.fields).toEqual(expect.arrayContaining(["name", "check", "email", "integer"]));
    expect(texts(elicitation)).toMatch(/Name: Ada Lovelace[\s\S]*Agreed to terms: true[\s\S]*Favorite Integer: 7/);

    const sampling = await call(() => client.callTool("trigger-sampling-request", { prompt: "a haiku", maxTokens: 42 }));
    expect(sampled).toEqual([{ prompt: "Resource trigger-sampling-request context: a haiku", maxTokens: 42 }]);
    expect(texts(sampling)).toContain('"text": "sampled by the test"');
    expect(texts(sampling)).toContain('"model": "test-model"');

    // The roots it got at connect time are what it reports now.
    expect(texts(await call(() => client.callTool("get-roots-list", {})))).toMatch(/Everything workspace[\s\S]*file:\/\/\/workspace\/everything/);
  } finally {
    await client.close();
  }
}

describe("against server-everything over stdio", () => {
  it("settles on 2025-11-25, answers its roots/list, lists, calls, and completes its elicitation and sampling", async () => {
    await exercise({ command: process.execPath, args: [BIN] });
  });
});

describe("against server-everything over Streamable HTTP", () => {
  let child: ChildProcess | undefined;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    child = await startProcess(process.execPath, [BIN, "streamableHttp"], { PORT: String(port) }, /listening on port/);
    url = `http://127.0.0.1:${port}/mcp`;
  });
  afterAll(() => stopProcess(child));

  it("settles on 2025-11-25, answers its roots/list on the GET stream, lists, calls, and completes its elicitation and sampling", async () => {
    await exercise(url);
  });

  it("remembers the outcome for the URL: a later connection goes straight to initialize", async () => {
    const methods: string[] = [];
    const recordingFetch: typeof fetch = (input, init) => {
      if (typeof init?.body === "string") methods.push((JSON.parse(init.body) as { method?: string }).method ?? "(response)");
      return fetch(input, init);
    };
    const client = await Client.connect(new StreamableHttpClientTransport(url, { fetch: recordingFetch }));
    try {
      expect(methods.slice(0, 2)).toEqual(["initialize", "notifications/initialized"]);
      expect(client.protocolVersion).toBe("2025-11-25");
      expect(client.negotiated).toEqual({ protocolVersion: "2025-11-25" });
      expect((await client.listAllTools()).map((tool) => tool.name)).toContain("echo");
    } finally {
      await client.close();
    }
  });
});
