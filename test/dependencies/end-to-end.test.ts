import { describe, expect, it, vi } from "vitest";
import {
  Client,
  InputResponseInvalid,
  isInputRequired,
  McpError,
  type ElicitRequestParams,
  type ElicitResult,
  type InputRequiredResult,
} from "mcp-roundtrip/client";
import { McpServer, RequestStateSecurity, elicit, listRoots, needs, sample, type JsonRpcResponse } from "mcp-roundtrip/server";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

const regionForm = {
  type: "object",
  properties: { region: { type: "string", enum: ["eu-west-1", "us-east-1"] } },
  required: ["region"],
} as const;
const sizeForm = { type: "object", properties: { gb: { type: "integer", minimum: 1, maximum: 100 } }, required: ["gb"] } as const;
const yesNo = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;

const accept = (content: Record<string, string | number | boolean>): ElicitResult => ({ action: "accept", content });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** Counts the tools/call requests that reach the server, so tests can see the rounds. */
function counting(server: MessageHandler) {
  const calls: Array<{ inputResponses?: Record<string, unknown>; requestState?: unknown }> = [];
  const handler: MessageHandler = {
    handle(message: unknown, context?: RequestContext): Promise<JsonRpcResponse | undefined> {
      const m = message as { method?: string; params?: { inputResponses?: Record<string, unknown>; requestState?: unknown } };
      if (m.method === "tools/call") calls.push({ inputResponses: m.params?.inputResponses, requestState: m.params?.requestState });
      return server.handle(message, context);
    },
  };
  return { handler, calls };
}

/** The provisioning tool: region and size asked together, then a confirmation that quotes both. */
function provisioner(body = vi.fn()) {
  const server = new McpServer({ name: "provisioner-e2e", version: "1.0.0" });
  server.tool(
    "provision",
    {
      description: "Provision a database",
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      needs: (need) =>
        need
          .add("region", () => elicit({ message: "Which region should the database live in?", schema: regionForm }))
          .add("size", (args) => elicit({ message: `How many GB for ${String(args.name)}?`, schema: sizeForm }))
          .add("confirm", (args, { region, size }) => {
            const where = region.action === "accept" ? region.content.region : "the default region";
            const gb = size.action === "accept" ? size.content.gb : 10;
            return elicit({ message: `Create ${String(args.name)} with ${gb} GB in ${where}?`, schema: yesNo });
          }),
    },
    (args, { region, size, confirm }) => {
      body(args, { region, size, confirm });
      if (confirm.action !== "accept" || !confirm.content.yes) return text("Cancelled.");
      const where = region.action === "accept" ? region.content.region : "default";
      const gb = size.action === "accept" ? size.content.gb : 10;
      return text(`Provisioned ${String(args.name)}: ${gb} GB in ${where}.`);
    },
  );
  return server;
}

describe("declared dependencies end to end through Client", () => {
  it("a tool with three dependencies, the third reading the first two, completes in two rounds", async () => {
    const body = vi.fn();
    const { handler, calls } = counting(provisioner(body));
    const onElicit = vi.fn(async (params: ElicitRequestParams): Promise<ElicitResult> => {
      const message = (params as { message: string }).message;
      if (message.startsWith("Which region")) return accept({ region: "eu-west-1" });
      if (message.startsWith("How many")) return accept({ gb: 20 });
      expect(message).toBe("Create orders with 20 GB in eu-west-1?");
      return accept({ yes: true });
    });
    const client = await Client.connect(handler, { onElicit });
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders: 20 GB in eu-west-1." }]);
    // The first call, then one retry per round: region and size answered together, then the confirmation alone.
    expect(calls).toHaveLength(3);
    expect(calls[0]!.inputResponses).toBeUndefined();
    expect(Object.keys(calls[1]!.inputResponses ?? {}).sort()).toEqual(["region", "size"]);
    // The last retry carries only the new answer; the first two come back from the sealed state.
    expect(Object.keys(calls[2]!.inputResponses ?? {})).toEqual(["confirm"]);
    expect(onElicit).toHaveBeenCalledTimes(3);
    expect(body).toHaveBeenCalledTimes(1);
  });

  it("keeps the state sealed on the wire and never runs the body while anything is pending", async () => {
    const body = vi.fn();
    const client = await Client.connect(provisioner(body), { onElicit: async () => ({ action: "cancel" }) });
    const first = await client.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
    expect(isInputRequired(first)).toBe(true);
    const state = (first as InputRequiredResult).requestState!;
    expect(state.startsWith("v1.")).toBe(true);
    expect(state).not.toContain("region");
    const second = await client.session.callTool(
      "provision",
      { name: "orders" },
      {
        allowInputRequired: true,
        requestState: state,
        inputResponses: { region: { action: "accept", content: { region: "us-east-1" } } },
      },
    );
    expect(Object.keys((second as InputRequiredResult).inputRequests ?? {})).toEqual(["size"]);
    expect(body).not.toHaveBeenCalled();
  });

  it("hands declined and cancelled outcomes to the handler", async () => {
    const body = vi.fn();
    const client = await Client.connect(provisioner(body), {
      onElicit: async (params) => {
        const message = (params as { message: string }).message;
        if (message.startsWith("Which region")) return { action: "decline" };
        if (message.startsWith("How many")) return { action: "cancel" };
        expect(message).toBe("Create orders with 10 GB in the default region?");
        return { action: "accept", content: { yes: true } };
      },
    });
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned orders: 10 GB in default." }]);
    expect(body.mock.calls[0]![1]).toMatchObject({ region: { action: "decline" }, size: { action: "cancel" } });
  });

  it("an answer that does not fit the question's schema is stopped by the client, naming the key and the path (the server would ask once more)", async () => {
    let sizeAsks = 0;
    const client = await Client.connect(provisioner(), {
      onElicit: async (params) => {
        const message = (params as { message: string }).message;
        if (message.startsWith("Which region")) return accept({ region: "eu-west-1" });
        if (message.startsWith("How many")) {
          sizeAsks += 1;
          return accept({ gb: 500 });
        }
        return accept({ yes: true });
      },
    });
    const error = (await client.callTool("provision", { name: "orders" }).catch((thrown: unknown) => thrown)) as InputResponseInvalid;
    expect(error).toBeInstanceOf(InputResponseInvalid);
    expect(error.key).toBe("size");
    expect(error.issues).toEqual([{ path: "/content/gb", message: expect.stringMatching(/^must be ≤ \d+$/) }]);
    expect(sizeAsks).toBe(1);
  });

  it("does not consume an answer sent without the echoed state", async () => {
    const body = vi.fn();
    const client = await Client.connect(provisioner(body), { onElicit: async () => ({ action: "cancel" }) });
    const result = await client.session.callTool(
      "provision",
      { name: "orders" },
      {
        allowInputRequired: true,
        inputResponses: {
          region: { action: "accept", content: { region: "eu-west-1" } },
          size: { action: "accept", content: { gb: 1 } },
          confirm: { action: "accept", content: { yes: true } },
        },
      },
    );
    expect(Object.keys((result as InputRequiredResult).inputRequests ?? {}).sort()).toEqual(["region", "size"]);
    expect(body).not.toHaveBeenCalled();
  });

  it("keys and digests survive a restart: another instance with the same key finishes the call, a reworded one re-asks", async () => {
    const secret = "an-e2e-test-secret-of-at-least-32-bytes!";
    const make = (message: string) => {
      const server = new McpServer({ name: "restart-e2e", version: "1.0.0" }, { requestStateSecurity: new RequestStateSecurity({ keys: [secret] }) });
      server.tool("pick", { needs: needs().add("region", () => elicit({ message, schema: regionForm })) }, (_args, { region }) =>
        text(region.action === "accept" ? region.content.region : region.action),
      );
      return server;
    };
    const onElicit = async (): Promise<ElicitResult> => ({ action: "cancel" });
    const before = await Client.connect(make("Which region?"), { onElicit });
    const first = (await before.session.callTool("pick", {}, { allowInputRequired: true })) as InputRequiredResult;
    const answer = { inputResponses: { region: { action: "accept" as const, content: { region: "us-east-1" } } }, requestState: first.requestState! };

    const restarted = await Client.connect(make("Which region?"), { onElicit });
    const done = await restarted.session.callTool("pick", {}, { allowInputRequired: true, ...answer });
    expect(done).toMatchObject({ content: [{ type: "text", text: "us-east-1" }] });

    const reworded = await Client.connect(make("Which region should it use?"), { onElicit });
    const again = await reworded.session.callTool("pick", {}, { allowInputRequired: true, ...answer });
    expect(isInputRequired(again)).toBe(true);
    expect((again as InputRequiredResult).inputRequests?.region).toMatchObject({ params: { message: "Which region should it use?" } });
  });

  it("sample() and listRoots() reach the client's onSample and onListRoots and the values reach the handler", async () => {
    const server = new McpServer({ name: "namer-e2e", version: "1.0.0" });
    server.tool(
      "name-project",
      {
        needs: (need) =>
          need
            .add("roots", () => listRoots())
            .add("idea", (_args, { roots }) =>
              sample({ messages: [{ role: "user", content: { type: "text", text: `Name a project in ${roots[0]?.uri}` } }], maxTokens: 20 }),
            ),
      },
      (_args, { roots, idea }) => {
        const content = idea.content as { type: string; text?: string };
        return text(`${roots.length} root(s); ${idea.model} says ${content.text}`);
      },
    );
    const onSample = vi.fn(async () => ({ role: "assistant" as const, model: "tiny", content: { type: "text" as const, text: "Heron" } }));
    const client = await Client.connect(server, { onListRoots: async () => ({ roots: [{ uri: "file:///work", name: "work" }] }), onSample });
    const result = await client.callTool("name-project", {});
    expect(result.content).toEqual([{ type: "text", text: "1 root(s); tiny says Heron" }]);
    expect(onSample).toHaveBeenCalledWith(
      expect.objectContaining({ messages: [{ role: "user", content: { type: "text", text: "Name a project in file:///work" } }], maxTokens: 20 }),
      expect.anything(),
    );
  });

  it("a question the client has no capability for is a -32021", async () => {
    const server = new McpServer({ name: "sampler-e2e", version: "1.0.0" });
    server.tool(
      "summarise",
      { needs: (need) => need.add("summary", () => sample({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 })) },
      () => text("never"),
    );
    const client = await Client.connect(server, { onElicit: async () => ({ action: "cancel" }) });
    const error = await client.callTool("summarise", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32021);
    expect(JSON.stringify((error as McpError).data)).toContain("sampling");
  });

  it("a tool with needs whose handler returns an InputRequiredResult is a type error and a -32603 at run time", async () => {
    const server = new McpServer({ name: "mixed-e2e", version: "1.0.0" });
    // @ts-expect-error a tool with needs may not return an InputRequiredResult
    server.tool("mixed", { needs: (need) => need.add("n", () => 1) }, () => ({ resultType: "input_required" as const, requestState: "x" }));
    const client = await Client.connect(server, {});
    const error = await client.callTool("mixed", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32603);
  });

  it("a malformed needs option is refused at registration", () => {
    const server = new McpServer({ name: "bad-e2e", version: "1.0.0" });
    expect(() => server.tool("bad", { needs: (() => 42) as never }, () => text("x"))).toThrow(/needs must be a needs\(\) declaration/);
    expect(() => server.tool("bad2", { needs: needs() }, 5 as never)).toThrow(TypeError);
  });

  it("lists a tool with needs like any other, without leaking the declaration", async () => {
    const client = await Client.connect(provisioner(), {});
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      {
        name: "provision",
        description: "Provision a database",
        inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      },
    ]);
  });

  it("a tool without needs still runs its ordinary handler", async () => {
    const server = new McpServer({ name: "plain-e2e", version: "1.0.0" });
    server.tool("echo", { inputSchema: { type: "object", properties: { s: { type: "string" } } } }, (args) => text(String(args.s)));
    const client = await Client.connect(server, {});
    expect((await client.callTool("echo", { s: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
  });
});
