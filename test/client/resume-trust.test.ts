// A parked call knows the server it belongs to and the revision it was made in:
// client.resume checks both before asking anyone again, and makes sure the
// server still accepts the call's requestState before the user answers, so a
// server restarted with other keys does not waste an answer.
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import {
  type CallToolResult,
  Client,
  MODERN_PROTOCOL_VERSION,
  McpError,
  PendingRequest,
  PendingServerMismatch,
  PendingStateRefused,
  isInputRequired,
  type JsonRpcRequest,
} from "mcp-roundtrip/client";
import { McpServer, elicit } from "mcp-roundtrip/server";
import { type HttpServerHandle, serveHttp } from "mcp-roundtrip/node";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";

const regionForm = { type: "object", properties: { region: { type: "string" } }, required: ["region"] } as const;
const quiet = { warn() {}, error() {} };

/** Our server with one tool that asks for a region; each instance seals under its own ephemeral key. */
function provisioner(name = "provisioner", version = "1.0.0") {
  const server = new McpServer({ name, version }, { logger: quiet });
  server.tool(
    "provision",
    {
      inputSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })),
    },
    ({ name: db }, { region }) => ({
      content: [{ type: "text" as const, text: region.action === "accept" ? `Provisioned ${db} in ${region.content.region}` : "declined" }],
    }),
  );
  return server;
}

/** Records the tools/call requests a handler receives. */
function tap(inner: MessageHandler) {
  const calls: JsonRpcRequest[] = [];
  const handler: MessageHandler = {
    handle: (message: unknown, context?: RequestContext) => {
      if ((message as JsonRpcRequest).method === "tools/call") calls.push(message as JsonRpcRequest);
      return inner.handle(message as never, context);
    },
  } as MessageHandler;
  return { handler, calls };
}

/** Starts the call on `target` and parks it after the first round; the stored JSON. */
async function park(target: Parameters<typeof Client.connect>[0]): Promise<string> {
  const client = await Client.connect(target, { capabilities: { elicitation: { form: {} } } });
  const first = await client.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
  if (!isInputRequired(first)) throw new Error("expected input_required");
  const stored = JSON.stringify(client.session.pending(first));
  await client.close();
  return stored;
}

/** A client that answers the region, counting how often it was asked. */
async function answering(target: Parameters<typeof Client.connect>[0], options: { mode?: "2025-11-25" } = {}) {
  const asked: string[] = [];
  const client = await Client.connect(target, {
    ...options,
    onElicit: (params) => {
      asked.push(params.message);
      return { action: "accept", content: { region: "eu-west-1" } };
    },
  });
  return { client, asked };
}

const handles: HttpServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close({ graceMs: 0 })));
});

describe("parked calls you can trust", () => {
  it("records the server a call was parked with (name, version) and the revision spoken", async () => {
    const stored = JSON.parse(await park(provisioner()));
    expect(stored.server).toEqual({ name: "provisioner", version: "1.0.0", protocolVersion: MODERN_PROTOCOL_VERSION });
    expect(PendingRequest.resume(stored).server).toEqual(stored.server);
  });

  it("finishes a parked call on its own server, asking once, typed by the call's method", async () => {
    const server = provisioner();
    const stored = await park(server);
    const { client, asked } = await answering(server);
    const done = await client.resume(stored, { method: "tools/call" });
    expectTypeOf(done).toEqualTypeOf<CallToolResult>();
    expect(done.content).toEqual([{ type: "text", text: "Provisioned orders in eu-west-1" }]);
    expect(asked).toEqual(["Which region?"]);
    const pending: PendingRequest<"tools/call"> = PendingRequest.resume<"tools/call">(stored);
    expectTypeOf(client.resume(pending)).resolves.toEqualTypeOf<CallToolResult>();
    await expect(client.resume(stored, { method: "prompts/get" })).rejects.toThrow(/expected a parked prompts\/get call, got tools\/call "provision"/);
  });

  it("refuses a call parked with another server, naming both, before anything is sent or anyone is asked", async () => {
    const stored = await park(provisioner("provisioner", "1.0.0"));
    const { handler, calls } = tap(provisioner("billing", "3.1.0"));
    const { client, asked } = await answering(handler);
    const error = (await client.resume(stored).catch((caught: unknown) => caught)) as PendingServerMismatch;
    expect(error).toBeInstanceOf(PendingServerMismatch);
    expect(error).toMatchObject({ name: "PendingServerMismatch", reason: "name", parked: { name: "provisioner" }, current: { name: "billing" } });
    expect(error.message).toMatch(/parked with "provisioner" 1\.0\.0 in this process, speaking 2026-07-28; this client is connected to "billing" 3\.1\.0/);
    expect(asked).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("refuses a call parked at another URL, naming both endpoints", async () => {
    const [a, b] = await Promise.all([serveHttp(provisioner(), { port: 0 }), serveHttp(provisioner(), { port: 0 })]);
    handles.push(a, b);
    const stored = await park(a.url);
    expect(JSON.parse(stored).server.endpoint).toBe(`http ${new URL(a.url).origin}/mcp`);
    const { client, asked } = await answering(b.url);
    const error = (await client.resume(stored).catch((caught: unknown) => caught)) as PendingServerMismatch;
    expect(error).toMatchObject({ name: "PendingServerMismatch", reason: "endpoint" });
    expect(error.message).toContain(new URL(a.url).origin);
    expect(error.message).toContain(new URL(b.url).origin);
    expect(asked).toEqual([]);
    await client.close();
  });

  it("refuses a call parked in a revision the server no longer speaks to this client", async () => {
    const server = provisioner();
    const stored = await park(server);
    const { client, asked } = await answering(server, { mode: "2025-11-25" });
    await expect(client.resume(stored)).rejects.toMatchObject({
      name: "PendingServerMismatch",
      reason: "revision",
      message: expect.stringMatching(/speaking 2025-11-25, and it no longer speaks 2026-07-28/),
    });
    expect(asked).toEqual([]);
  });

  it("after the server restarted with other keys: PendingStateRefused before the user is asked again", async () => {
    const stored = await park(provisioner());
    const restarted = provisioner(); // same name, a new ephemeral key
    const { client, asked } = await answering(restarted);
    const error = (await client.resume(stored).catch((caught: unknown) => caught)) as PendingStateRefused;
    expect(error).toBeInstanceOf(PendingStateRefused);
    expect(error.message).toMatch(/no longer accepts this tools\/call "provision" call's requestState.*Nobody was asked anything/);
    expect(error.answers).toEqual({});
    expect(error.pending.arguments).toEqual({ name: "orders" });
    expect(error.cause).toBeInstanceOf(McpError);
    expect((error.cause as McpError).code).toBe(-32602);
    expect(asked).toEqual([]);
    // The same call started afresh on the restarted server goes through.
    expect((await client.callTool("provision", { name: "orders" })).content).toEqual([{ type: "text", text: "Provisioned orders in eu-west-1" }]);
  });

  it("keeps the answers given when the refusal comes only after them (checkState: false), for a fresh call to reuse", async () => {
    const stored = await park(provisioner());
    const { client, asked } = await answering(provisioner());
    const error = (await client.resume(stored, { checkState: false }).catch((caught: unknown) => caught)) as PendingStateRefused;
    expect(error).toBeInstanceOf(PendingStateRefused);
    expect(asked).toEqual(["Which region?"]);
    expect(error.answers).toEqual({
      region: {
        request: { method: "elicitation/create", params: expect.objectContaining({ message: "Which region?" }) },
        response: { action: "accept", content: { region: "eu-west-1" } },
      },
    });
    expect(error.message).toMatch(/The 1 answer\(s\) given are on error\.answers/);
  });
});
