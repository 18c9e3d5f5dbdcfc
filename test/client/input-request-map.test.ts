// onInputRequest: the map of input-request kind → callback, read from the generated kind table.
// Against this SDK's own server, in memory and over HTTP, on a 2026-07-28 exchange and a 2025-11-25
// session: each key's capability is declared (so the server asks), an answer that does not fit its
// kind's result type is refused before anything is sent, and a key that names no kind, or a kind
// given twice, is a clear error at connect.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, InputRequestFailed, InputResponseInvalid, type JsonRpcRequest, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { McpServer, elicit, listRoots, sample } from "mcp-roundtrip/server";
import { serveHttp, type HttpServerHandle } from "mcp-roundtrip/node";
import { tap } from "./tap.js";

const nameForm = { type: "object", properties: { name: { type: "string" } }, required: ["name"] } as const;
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

function asker() {
  const server = new McpServer({ name: "asker", version: "1.0.0" });
  server.tool(
    "greet",
    { inputSchema: { type: "object" }, needs: (need) => need.add("confirm", () => elicit({ message: "Your name?", schema: nameForm })) },
    (_args, { confirm }) => text(confirm.action === "accept" ? `Hello, ${confirm.content.name}` : "no name"),
  );
  server.tool(
    "summarise",
    {
      inputSchema: { type: "object" },
      needs: (need) => need.add("draft", () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })),
    },
    (_args, { draft }) => text(`sampled by ${draft.model}`),
  );
  server.tool("roots", { inputSchema: { type: "object" }, needs: (need) => need.add("roots", () => listRoots()) }, (_args, { roots }) =>
    text(JSON.stringify(roots)),
  );
  return server;
}

const capabilitiesOf = (request: JsonRpcRequest) => (request.params!._meta as Record<string, unknown>)["io.modelcontextprotocol/clientCapabilities"];

const answers = {
  "elicitation/create": async () => ({ action: "accept" as const, content: { name: "Ada" } }),
  "sampling/createMessage": async () => ({ role: "assistant" as const, content: { type: "text" as const, text: "x" }, model: "m-1" }),
  "roots/list": async () => ({ roots: [{ uri: "file:///work" }] }),
};

describe("onInputRequest on a 2026-07-28 exchange, in memory", () => {
  it("answers each kind by method, and declares each kind's capability from the schema's table", async () => {
    const wire = tap(asker());
    const client = await Client.connect(wire, { onInputRequest: answers });
    expect((await client.callTool("greet", {})).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    expect((await client.callTool("summarise", {})).content).toEqual([{ type: "text", text: "sampled by m-1" }]);
    expect((await client.callTool("roots", {})).content).toEqual([{ type: "text", text: '[{"uri":"file:///work"}]' }]);
    // The same declaration onElicit, onSample and onListRoots give: form elicitation, sampling, roots.
    expect(capabilitiesOf(wire.requests.at(-1)!)).toEqual({ elicitation: { form: {} }, sampling: {}, roots: {} });
  });

  it("declares only the kinds it answers, with the capabilities option merged on top", async () => {
    const wire = tap(asker());
    const client = await Client.connect(wire, {
      onInputRequest: { "roots/list": answers["roots/list"] },
      capabilities: { experimental: { widgets: {} } },
    });
    expect((await client.callTool("roots", {})).content).toEqual([{ type: "text", text: '[{"uri":"file:///work"}]' }]);
    expect(capabilitiesOf(wire.requests.at(-1)!)).toEqual({ roots: {}, experimental: { widgets: {} } });
    // Elicitation was not declared, so the server does not ask it: it refuses the call with -32021.
    await expect(client.callTool("greet", {})).rejects.toMatchObject({ code: -32021 });
  });

  it("mixes the options and the map, one callback per kind", async () => {
    const client = await Client.connect(asker(), {
      onElicit: answers["elicitation/create"],
      onInputRequest: { "sampling/createMessage": answers["sampling/createMessage"] },
    });
    expect((await client.callTool("greet", {})).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
    expect((await client.callTool("summarise", {})).content).toEqual([{ type: "text", text: "sampled by m-1" }]);
  });

  it("refuses an answer that does not fit its kind's result type before anything is sent, naming the map entry", async () => {
    const wire = tap(asker());
    const client = await Client.connect(wire, {
      onInputRequest: {
        "sampling/createMessage": async () => ({ role: "assistant", content: { type: "text", text: "x" } }) as never,
        "roots/list": async () => ({ roots: [{ uri: 7 }] }) as never,
        "elicitation/create": async () => ({ action: "accept", content: { name: 42 } }) as never,
      },
    });
    const sampling = (await client.callTool("summarise", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(sampling).toBeInstanceOf(InputResponseInvalid);
    expect(sampling.message).toMatch(/^onInputRequest\["sampling\/createMessage"\] answer for "draft": .*model/);
    const roots = (await client.callTool("roots", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(roots).toMatchObject({ key: "roots", method: "roots/list", issues: [{ path: "/roots/0/uri" }] });
    const form = (await client.callTool("greet", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(form.message).toBe(
      'onInputRequest["elicitation/create"] answer for "confirm": /content/name must be a string. Nothing was sent; make the callback\'s answer fit the request.',
    );
    expect(wire.requests.some((request) => request.params?.inputResponses !== undefined)).toBe(false);
  });

  it("a kind the server asks that no callback answers names both ways to give one", async () => {
    const client = await Client.connect(asker(), { capabilities: { elicitation: { form: {} } } });
    const error = (await client.callTool("greet", {}).catch((thrown: unknown) => thrown)) as InputRequestFailed;
    expect(error).toBeInstanceOf(InputRequestFailed);
    expect(error.message).toBe(
      'The server asked for "confirm" (elicitation/create) but there is no callback for it. ' +
        'Pass onElicit or onInputRequest["elicitation/create"] to Client.connect so the client can answer it (and declares the capability).',
    );
  });
});

describe("onInputRequest is checked at connect", () => {
  it("a key that names no input-request kind is an error naming the key and the kinds this client knows; nothing is sent", async () => {
    const wire = tap(asker());
    const connecting = Client.connect(wire, { onInputRequest: { "confirmation/create": async () => ({}) } as never });
    await expect(connecting).rejects.toThrow(RangeError);
    await expect(connecting).rejects.toThrow(
      'onInputRequest has a key "confirmation/create", which is no input-request kind this client knows ' +
        "(it knows elicitation/create, roots/list, sampling/createMessage).",
    );
    expect(wire.requests).toEqual([]);
  });

  it("a kind given twice, by its own option and by the map, is an error naming both", async () => {
    const connecting = Client.connect(asker(), { onElicit: answers["elicitation/create"], onInputRequest: { "elicitation/create": answers["elicitation/create"] } });
    await expect(connecting).rejects.toThrow(
      new TypeError('elicitation/create is answered twice, by onElicit and by onInputRequest["elicitation/create"]: give each kind one callback.'),
    );
  });

  it.each([
    ["a map that is not an object", [], /^onInputRequest must be an object keyed by input-request method/],
    ["an entry that is not a function", { "roots/list": "yes" }, /^onInputRequest\["roots\/list"\] must be a function, got string\.$/],
  ])("%s is a TypeError", async (_label, map, message) => {
    await expect(Client.connect(asker(), { onInputRequest: map as never })).rejects.toThrow(message);
  });
});

describe("onInputRequest over HTTP, both eras", () => {
  let http: HttpServerHandle;
  beforeAll(async () => {
    http = await serveHttp(asker());
  });
  afterAll(() => http.close());

  it("2026-07-28: the map answers the rounds, and a misfit is refused locally", async () => {
    const client = await Client.connect(http.url, { onInputRequest: answers });
    try {
      expect(client.protocolVersion).toBe("2026-07-28");
      expect((await client.callTool("greet", {})).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
      expect((await client.callTool("summarise", {})).content).toEqual([{ type: "text", text: "sampled by m-1" }]);
    } finally {
      await client.close();
    }
    const misfit = await Client.connect(http.url, { onInputRequest: { "roots/list": async () => ({ roots: "none" }) as never } });
    try {
      await expect(misfit.callTool("roots", {})).rejects.toMatchObject({ name: "InputResponseInvalid", method: "roots/list", issues: [{ path: "/roots" }] });
    } finally {
      await misfit.close();
    }
  });

  it("2025-11-25: the capabilities are declared at initialize, the back channel reaches the map, and a misfit is refused to the server", async () => {
    const transport = new StreamableHttpClientTransport(http.url);
    const client = await Client.connect(transport, { mode: "2025-11-25", onInputRequest: answers });
    try {
      expect(client.protocolVersion).toBe("2025-11-25");
      // The server asks over the session only what initialize declared.
      expect((await client.callTool("greet", {})).content).toEqual([{ type: "text", text: "Hello, Ada" }]);
      expect((await client.callTool("roots", {})).content).toEqual([{ type: "text", text: '[{"uri":"file:///work"}]' }]);
    } finally {
      await client.close();
    }
    const misfit = await Client.connect(new StreamableHttpClientTransport(http.url), {
      mode: "2025-11-25",
      onInputRequest: { "roots/list": async () => ({ roots: [{ uri: 7 }] }) as never },
    });
    try {
      const error = (await misfit.callTool("roots", {}).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
      expect(error).toBeInstanceOf(InputResponseInvalid);
      expect(error).toMatchObject({ key: undefined, method: "roots/list", issues: [{ path: "/roots/0/uri" }] });
      expect(error.message).toMatch(/^onInputRequest\["roots\/list"\] answer: \/roots\/0\/uri /);
    } finally {
      await misfit.close();
    }
  });
});
