// The seed's examples, client side, against the real Server / McpServer.
import { describe, expect, it } from "vitest";
import {
  type JsonRpcRequest,
  type JsonRpcResponse,
  Client,
  McpError,
  PendingRequest,
  isInputRequired,
  type ElicitResult,
  type InputRequest,
  type InputResponse,
} from "mcp-roundtrip/client";
import { McpServer, inputRequired, type ServerRequestContext } from "mcp-roundtrip/server";
import type { MessageHandler, RequestContext } from "../../runtime/transport/types.js";
import { ASK_REGION, createProvisionServer } from "../../examples/demo/provision-server.js";

const quietLogger = { warn() {}, error() {} };

/** The seed's low-level provision server (the demo's), with sealing opted in. */
const provisioner = () => createProvisionServer(quietLogger);

/** Wraps a handler to record what crossed the wire. */
function tap(inner: MessageHandler) {
  const requests: JsonRpcRequest[] = [];
  const responses: JsonRpcResponse[] = [];
  return {
    requests,
    responses,
    async handle(message: unknown, context?: RequestContext) {
      requests.push(structuredClone(message) as JsonRpcRequest);
      const response = await inner.handle(message, context);
      if (response !== undefined) responses.push(structuredClone(response));
      return response;
    },
  };
}

function fulfil(request: InputRequest): InputResponse {
  if (request.method !== "elicitation/create") throw new Error(`this client cannot answer a ${request.method} request`);
  return { action: "accept", content: { region: "eu-west-1" } };
}

describe("the seed's provision example", () => {
  it("runs the automatic loop: one question, a sealed token echoed, the final result", async () => {
    const wire = tap(provisioner());
    const client = await Client.connect(wire, {
      onElicit: async () => ({ action: "accept", content: { region: "eu-west-1" } }),
    });
    expect(client.serverInfo).toMatchObject({ name: "Provisioner", version: "1.0.0" });
    const result = await client.callTool("provision", { name: "orders" });
    expect(result.content).toEqual([{ type: "text", text: "Provisioned 'orders' in eu-west-1." }]);

    const calls = wire.requests.filter((request) => request.method === "tools/call");
    expect(calls).toHaveLength(2);
    const token = (wire.responses[1] as unknown as { result: { requestState: string } }).result.requestState;
    expect(token).toMatch(/^v1\./);
    expect(token).not.toContain("provision-v1");
    expect(calls[1]!.params!.requestState).toBe(token);
  });

  it("reproduces the seed's manual loop through client.session", async () => {
    // No callbacks: the caller answers by hand, so it declares what it can answer.
    const client = await Client.connect(provisioner(), { capabilities: { elicitation: { form: {} } } });
    const name = "orders";
    let result = await client.session.callTool("provision", { name }, { allowInputRequired: true });
    const seenStates: (string | undefined)[] = [];
    while (isInputRequired(result)) {
      seenStates.push(result.requestState);
      const responses: Record<string, InputResponse> = {};
      for (const [key, request] of Object.entries(result.inputRequests ?? {})) responses[key] = fulfil(request);
      result = await client.session.callTool(
        "provision",
        { name },
        {
          inputResponses: responses,
          requestState: result.requestState,
          allowInputRequired: true,
        },
      );
    }
    expect(seenStates).toHaveLength(1);
    expect(seenStates[0]).toMatch(/^v1\./);
    expect(result.content).toEqual([{ type: "text", text: "Provisioned 'orders' in eu-west-1." }]);
  });

  it("finishes in a fresh Client from the serialised pending call", async () => {
    const server = provisioner();
    const first = await Client.connect(server, { capabilities: { elicitation: { form: {} } } });
    const round = await first.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
    if (!isInputRequired(round)) throw new Error("expected input_required");
    const stored = JSON.stringify(first.session.pending(round));
    await first.close();

    const second = await Client.connect(server, { onElicit: () => ({ action: "accept", content: { region: "sa-east-1" } }) });
    const result = await second.resume(PendingRequest.resume(stored));
    expect(result).toMatchObject({ content: [{ type: "text", text: "Provisioned 'orders' in sa-east-1." }] });
  });

  it("gets the fixed rejection when the echoed state was tampered with", async () => {
    const client = await Client.connect(provisioner(), { capabilities: { elicitation: { form: {} } } });
    const round = await client.session.callTool("provision", { name: "orders" }, { allowInputRequired: true });
    if (!isInputRequired(round)) throw new Error("expected input_required");
    const tampered = `${round.requestState!.slice(0, -2)}${round.requestState!.endsWith("AA") ? "BB" : "AA"}`;
    const error = await client.session
      .callTool("provision", { name: "orders" }, { allowInputRequired: true, requestState: tampered, inputResponses: { region: fulfil(ASK_REGION) } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32602, message: "Invalid or expired requestState" });
  });

  it("lists the tool", async () => {
    const client = await Client.connect(provisioner());
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["provision"]);
  });

  it("is refused by the server when the client cannot elicit (no onElicit, no capability)", async () => {
    const client = await Client.connect(provisioner());
    await expect(client.callTool("provision", { name: "orders" })).rejects.toMatchObject({ code: -32021 });
  });
});

describe("prompts and resources that ask (McpServer)", () => {
  function briefing() {
    const mcp = new McpServer({ name: "Briefing", version: "1.0.0" }, { logger: quietLogger });
    mcp.prompt("briefing", { description: "Draft a briefing tuned to its audience." }, (_args, ctx) => {
      const answer = ctx.inputResponses?.audience as ElicitResult | undefined;
      if (answer?.content === undefined) {
        return inputRequired({
          inputRequests: {
            audience: {
              method: "elicitation/create",
              params: {
                message: "Who is the briefing for?",
                requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
              },
            },
          },
        });
      }
      return [{ role: "user", content: { type: "text", text: `Write a briefing for ${String(answer.content.audience)}.` } }];
    });
    mcp.resource(
      "db://{table}/schema",
      { description: "A table's schema; asks which environment." },
      (uri: string, variables: Record<string, unknown>, ctx: ServerRequestContext) => {
        const env = ctx.requestState;
        const answer = ctx.inputResponses?.env as ElicitResult | undefined;
        if (answer?.content === undefined) {
          return inputRequired({
            inputRequests: {
              env: {
                method: "elicitation/create",
                params: { message: "Which environment?", requestedSchema: { type: "object", properties: { env: { type: "string" } } } },
              },
            },
            requestState: `table=${String(variables.table)}`,
          });
        }
        return [{ uri, mimeType: "text/plain", text: `${env} in ${String(answer.content.env)}` }];
      },
    );
    return mcp;
  }

  it("getPrompt runs the loop for the seed's briefing prompt", async () => {
    const asked: string[] = [];
    const client = await Client.connect(briefing(), {
      onElicit: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { audience: "the board" } };
      },
    });
    const prompt = await client.getPrompt("briefing");
    expect(asked).toEqual(["Who is the briefing for?"]);
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Write a briefing for the board." } }]);
  });

  it("readResource runs the loop for a template resource, with sealed state round-tripped", async () => {
    const client = await Client.connect(briefing(), { onElicit: () => ({ action: "accept", content: { env: "staging" } }) });
    const resource = await client.readResource("db://orders/schema");
    expect(resource.contents).toEqual([{ uri: "db://orders/schema", mimeType: "text/plain", text: "table=orders in staging" }]);
  });
});
