// Every example of the seed page ("Сторона сервера", "Не только инструменты", "Защита requestState"), with this SDK.
import { describe, expect, it } from "vitest";
import { inputRequired, InvalidRequestState, McpServer, RequestStateSecurity, requestStateBoundary, Server } from "mcp-roundtrip/server";
import type { ElicitRequest, ElicitResult } from "mcp-roundtrip/types";
import { PROVISIONER_INFO, provisionHandlers } from "../../examples/demo/provision-server.js";
import { ASK_REGION, pair, recordingLogger, type Pairing } from "./helpers.js";

const ELICIT = { elicitation: { form: {} } };
const SECRET = "0123456789abcdef0123456789abcdef-test-secret";

/** The demo's provision server without its sealing boundary. */
const provisionServer = (): Server => new Server(PROVISIONER_INFO, provisionHandlers());

/** The seed's second round: the same call, answering the region question and echoing the state. */
const retryWithRegion = (client: Pairing, requestState: unknown) =>
  client.result("tools/call", {
    name: "provision",
    arguments: { name: "orders" },
    inputResponses: { region: { action: "accept", content: { region: "eu-west-1" } } },
    requestState,
  });

describe("seed: the low-level provision server", () => {
  it("asks for the region, then provisions on the retry with the same key", async () => {
    const client = pair(provisionServer(), ELICIT);
    const first = await client.result("tools/call", { name: "provision", arguments: { name: "orders" } });
    expect(first.resultType).toBe("input_required");
    expect(first.inputRequests).toEqual({ region: ASK_REGION });
    // The low-level server seals nothing until asked: the state travels as written.
    expect(first.requestState).toBe("provision-v1");
    expect(first.ttlMs).toBeUndefined();

    const second = await retryWithRegion(client, first.requestState);
    expect(second.resultType).toBe("complete");
    expect(second.content).toEqual([{ type: "text", text: "Provisioned 'orders' in eu-west-1." }]);
    expect(client.ids[0]).not.toBe(client.ids[1]);
  });

  it("lists the provision tool with caching hints and serverInfo", async () => {
    const list = await pair(provisionServer()).result("tools/list");
    expect(list).toMatchObject({
      resultType: "complete",
      tools: [{ name: "provision" }],
      ttlMs: 0,
      cacheScope: "private",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "Provisioner", version: "1.0.0" } },
    });
  });

  it("opts into sealing with one line: the wire carries a token, the handler reads plaintext", async () => {
    const seen: (string | undefined)[] = [];
    const server = new Server(
      { name: "Provisioner", version: "1.0.0" },
      {
        onCallTool: (_params, ctx) => {
          seen.push(ctx.requestState);
          if (ctx.inputResponses?.region === undefined) return inputRequired({ inputRequests: { region: ASK_REGION }, requestState: "provision-v1" });
          return { content: [{ type: "text", text: "done" }] };
        },
      },
    );
    server.use(requestStateBoundary(new RequestStateSecurity({ keys: [SECRET] }), { audience: "provisioner" }));
    const client = pair(server, ELICIT);
    const first = await client.result("tools/call", { name: "provision", arguments: { name: "orders" } });
    expect(first.requestState).toMatch(/^v1\./);
    expect(first.requestState).not.toContain("provision-v1");
    const second = await retryWithRegion(client, first.requestState);
    expect(second.resultType).toBe("complete");
    expect(seen).toEqual([undefined, "provision-v1"]);
  });
});

const ASK_AUDIENCE: ElicitRequest = {
  method: "elicitation/create",
  params: {
    message: "Who is the briefing for?",
    requestedSchema: { type: "object", properties: { audience: { type: "string" } }, required: ["audience"] },
  },
};

describe("seed: the briefing prompt of McpServer", () => {
  const mcp = new McpServer({ name: "Briefing", version: "1.0.0" });
  mcp.prompt("briefing", { description: "Draft a briefing tuned to its audience." }, (_args, ctx) => {
    const answer = ctx.inputResponses?.audience as ElicitResult | undefined;
    if (answer?.content === undefined) return inputRequired({ inputRequests: { audience: ASK_AUDIENCE } });
    return [{ role: "user", content: { type: "text", text: `Write a briefing for ${String(answer.content.audience)}.` } }];
  });

  it("asks first, then returns the messages", async () => {
    const client = pair(mcp, ELICIT);
    const first = await client.result("prompts/get", { name: "briefing" });
    expect(first).toMatchObject({ resultType: "input_required", inputRequests: { audience: ASK_AUDIENCE } });
    expect(first.requestState).toBeUndefined();
    const second = await client.result("prompts/get", {
      name: "briefing",
      inputResponses: { audience: { action: "accept", content: { audience: "the board" } } },
    });
    expect(second).toMatchObject({
      resultType: "complete",
      messages: [{ role: "user", content: { type: "text", text: "Write a briefing for the board." } }],
    });
  });

  it("is listed with its description", async () => {
    const list = await pair(mcp).result("prompts/list");
    expect(list.prompts).toEqual([{ name: "briefing", description: "Draft a briefing tuned to its audience." }]);
  });
});

describe("seed: a template resource that asks", () => {
  const mcp = new McpServer({ name: "Reports", version: "1.0.0" });
  mcp.resource("report://{year}/summary", { mimeType: "text/plain" }, (uri, { year }, ctx) => {
    const answer = ctx.inputResponses?.detail as ElicitResult | undefined;
    if (answer?.content === undefined) {
      return inputRequired({
        inputRequests: {
          detail: {
            method: "elicitation/create",
            params: {
              message: `How detailed should the ${String(year)} summary be?`,
              requestedSchema: { type: "object", properties: { level: { type: "string" } } },
            },
          },
        },
        requestState: JSON.stringify({ year }),
      });
    }
    const state = JSON.parse(ctx.requestState ?? "{}") as { year?: string };
    return `${String(answer.content.level)} summary of ${state.year} for ${uri}`;
  });
  mcp.resource("report://index", { mimeType: "text/plain" }, (uri) => `index at ${uri}`);

  it("asks, then reads with the sealed state and the answers", async () => {
    const client = pair(mcp, ELICIT);
    const first = await client.result("resources/read", { uri: "report://2025/summary" });
    expect(first.resultType).toBe("input_required");
    expect(first.ttlMs).toBeUndefined();
    expect(typeof first.requestState).toBe("string");
    expect(first.requestState).not.toContain("2025");
    const second = await client.result("resources/read", {
      uri: "report://2025/summary",
      inputResponses: { detail: { action: "accept", content: { level: "brief" } } },
      requestState: first.requestState,
    });
    expect(second).toMatchObject({
      resultType: "complete",
      contents: [{ uri: "report://2025/summary", mimeType: "text/plain", text: "brief summary of 2025 for report://2025/summary" }],
      ttlMs: 0,
      cacheScope: "private",
    });
  });

  it("rejects the state when replayed against another resource URI", async () => {
    const client = pair(mcp, ELICIT);
    const first = await client.result("resources/read", { uri: "report://2025/summary" });
    const error = await client.error("resources/read", {
      uri: "report://2024/summary",
      inputResponses: { detail: { action: "accept", content: { level: "brief" } } },
      requestState: first.requestState,
    });
    expect(error).toEqual({ code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } });
  });

  it("lists the template and the static resource apart", async () => {
    const client = pair(mcp);
    expect((await client.result("resources/templates/list")).resourceTemplates).toEqual([
      { uriTemplate: "report://{year}/summary", name: "report://{year}/summary", mimeType: "text/plain" },
    ]);
    expect((await client.result("resources/list")).resources).toEqual([{ uri: "report://index", name: "report://index", mimeType: "text/plain" }]);
  });
});

describe("seed: a three-round tool whose sealed state carries a step counter", () => {
  const logger = recordingLogger();
  let bodyRuns = 0;
  const mcp = new McpServer(
    { name: "wizard", version: "1.0.0" },
    { requestStateSecurity: new RequestStateSecurity({ keys: [SECRET] }, { logger: { warn: (m) => logger.warn(m) } }), logger },
  );
  mcp.tool("wizard", { inputSchema: { type: "object", properties: { project: { type: "string" } }, required: ["project"] } }, (args, ctx) => {
    bodyRuns++;
    const step = ctx.requestState === undefined ? 0 : (JSON.parse(ctx.requestState) as { step: number }).step;
    if (step < 2) {
      return inputRequired({
        inputRequests: {
          [`q${step + 1}`]: {
            method: "elicitation/create",
            params: { message: `Question ${step + 1} about ${String(args.project)}`, requestedSchema: { type: "object", properties: { a: { type: "string" } } } },
          },
        },
        requestState: JSON.stringify({ step: step + 1 }),
      });
    }
    return { content: [{ type: "text", text: `finished ${String(args.project)} after ${step} rounds` }] };
  });

  it("takes three rounds, each sealed afresh, and finishes", async () => {
    const client = pair(mcp, ELICIT);
    const args = { project: "apollo" };
    const round1 = await client.result("tools/call", { name: "wizard", arguments: args });
    expect(Object.keys(round1.inputRequests as object)).toEqual(["q1"]);
    const round2 = await client.result("tools/call", {
      name: "wizard",
      arguments: args,
      inputResponses: { q1: { action: "accept", content: { a: "x" } } },
      requestState: round1.requestState,
    });
    expect(Object.keys(round2.inputRequests as object)).toEqual(["q2"]);
    expect(round2.requestState).not.toBe(round1.requestState);
    const round3 = await client.result("tools/call", {
      name: "wizard",
      arguments: args,
      inputResponses: { q2: { action: "accept", content: { a: "y" } } },
      requestState: round2.requestState,
    });
    expect(round3.content).toEqual([{ type: "text", text: "finished apollo after 2 rounds" }]);
  });

  it("rejects tampered state before the handler runs", async () => {
    const client = pair(mcp, ELICIT);
    const round1 = await client.result("tools/call", { name: "wizard", arguments: { project: "apollo" } });
    const token = String(round1.requestState);
    const flipped = token.slice(0, -2) + (token.at(-2) === "A" ? "B" : "A") + token.at(-1);
    const before = bodyRuns;
    for (const requestState of [flipped, "v1.forged", JSON.stringify({ step: 2 })]) {
      const error = await client.error("tools/call", { name: "wizard", arguments: { project: "apollo" }, requestState });
      expect(error).toEqual({ code: -32602, message: "Invalid or expired requestState", data: { reason: "invalid_request_state" } });
    }
    expect(bodyRuns).toBe(before);
    expect(logger.warnings.length).toBeGreaterThanOrEqual(3);
    expect(logger.warnings.join("\n")).not.toContain(token);
  });

  it("rejects state replayed with other arguments, another tool, or another principal", async () => {
    mcp.tool("other", {}, () => ({ content: [] }));
    const client = pair(mcp, ELICIT);
    const alice = { authInfo: { clientId: "app", subject: "alice", scopes: [] } };
    const bob = { authInfo: { clientId: "app", subject: "bob", scopes: [] } };
    const round1 = await client.result("tools/call", { name: "wizard", arguments: { project: "apollo" } }, alice);
    const replays: [Record<string, unknown>, typeof alice | undefined][] = [
      [{ name: "wizard", arguments: { project: "gemini" } }, alice],
      [{ name: "other", arguments: { project: "apollo" } }, alice],
      [{ name: "wizard", arguments: { project: "apollo" } }, bob],
      [{ name: "wizard", arguments: { project: "apollo" } }, undefined],
    ];
    for (const [params, context] of replays) {
      const error = await client.error("tools/call", { ...params, requestState: round1.requestState }, context);
      expect(error.message).toBe("Invalid or expired requestState");
    }
    const ok = await client.result("tools/call", { name: "wizard", arguments: { project: "apollo" }, requestState: round1.requestState }, alice);
    expect(ok.resultType).toBe("input_required");
  });

  it("verifies state even for a tool that never mints any", async () => {
    const client = pair(mcp, ELICIT);
    const error = await client.error("tools/call", { name: "other", requestState: "anything" });
    expect(error.code).toBe(-32602);
    expect(error.message).toBe("Invalid or expired requestState");
  });

  it("treats a JSON null requestState as absent", async () => {
    const client = pair(mcp, ELICIT);
    const result = await client.result("tools/call", { name: "wizard", arguments: { project: "apollo" }, requestState: null });
    expect(result.resultType).toBe("input_required");
  });
});

describe("seed: sealing policy of McpServer", () => {
  const security = () => new RequestStateSecurity({ keys: [SECRET] });

  it("seals by default under an ephemeral key that another instance cannot read", async () => {
    const make = () => {
      const mcp = new McpServer({ name: "Deployer", version: "1.0.0" }, { logger: recordingLogger() });
      mcp.tool("deploy", {}, (_args, ctx) =>
        ctx.requestState === undefined ? inputRequired({ requestState: "step-1" }) : { content: [{ type: "text", text: ctx.requestState }] },
      );
      return mcp;
    };
    const a = pair(make());
    const first = await a.result("tools/call", { name: "deploy" });
    expect(first.requestState).toMatch(/^v1\./);
    expect((await a.result("tools/call", { name: "deploy", requestState: first.requestState })).content).toEqual([{ type: "text", text: "step-1" }]);
    const b = pair(make());
    expect((await b.error("tools/call", { name: "deploy", requestState: first.requestState })).message).toBe("Invalid or expired requestState");
  });

  it("throws at construction with an explicit policy and no distinctive name or audience", () => {
    for (const name of ["", "mcp", "MCP Server", "server", "my-server"]) {
      expect(() => new McpServer({ name, version: "1" }, { requestStateSecurity: security() })).toThrow(/distinctive server name or an audience/);
    }
  });

  it("accepts an explicit policy with a real name, or with an audience", () => {
    expect(() => new McpServer({ name: "billing-api", version: "1" }, { requestStateSecurity: security() })).not.toThrow();
    expect(() => new McpServer({ name: "server", version: "1" }, { requestStateSecurity: security(), audience: "billing" })).not.toThrow();
    expect(
      () => new McpServer({ name: "server", version: "1" }, { requestStateSecurity: new RequestStateSecurity({ keys: [SECRET] }, { audience: "billing" }) }),
    ).not.toThrow();
    expect(() => new McpServer({ name: "", version: "1" })).not.toThrow();
  });

  it("binds tokens to the audience: a fleet sharing a key rejects another service's state", async () => {
    const make = (name: string) => {
      const mcp = new McpServer({ name, version: "1" }, { requestStateSecurity: new RequestStateSecurity({ keys: [SECRET] }, { logger: { warn() {} } }) });
      mcp.tool("t", {}, (_a, ctx) => (ctx.requestState === undefined ? inputRequired({ requestState: "s" }) : { content: [] }));
      return pair(mcp);
    };
    const billing = make("billing-api");
    const token = (await billing.result("tools/call", { name: "t" })).requestState;
    expect((await make("billing-api").result("tools/call", { name: "t", requestState: token })).resultType).toBe("complete");
    expect((await make("shipping-api").error("tools/call", { name: "t", requestState: token })).message).toBe("Invalid or expired requestState");
  });
});

describe("seed: key rotation and a custom codec behind McpServer", () => {
  const OLD = "old-secret-old-secret-old-secret-0001";
  const NEW = "new-secret-new-secret-new-secret-0002";
  const quiet = { logger: { warn() {} } };
  const deployer = (security: RequestStateSecurity) => {
    const mcp = new McpServer({ name: "Deployer", version: "1" }, { requestStateSecurity: security });
    mcp.tool("deploy", {}, (_a, ctx) =>
      ctx.requestState === undefined ? inputRequired({ requestState: "phase" }) : { content: [{ type: "text", text: ctx.requestState }] },
    );
    return pair(mcp);
  };

  it("rotates in three phases without dropping rounds in flight", async () => {
    const phase1 = deployer(new RequestStateSecurity({ keys: [OLD, NEW] }, quiet));
    const phase2 = deployer(new RequestStateSecurity({ keys: [NEW, OLD] }, quiet));
    const phase3 = deployer(new RequestStateSecurity({ keys: [NEW] }, quiet));
    const fromPhase1 = (await phase1.result("tools/call", { name: "deploy" })).requestState;
    const fromPhase2 = (await phase2.result("tools/call", { name: "deploy" })).requestState;
    expect((await phase2.result("tools/call", { name: "deploy", requestState: fromPhase1 })).resultType).toBe("complete");
    expect((await phase1.result("tools/call", { name: "deploy", requestState: fromPhase2 })).resultType).toBe("complete");
    expect((await phase3.result("tools/call", { name: "deploy", requestState: fromPhase2 })).resultType).toBe("complete");
    expect((await phase3.error("tools/call", { name: "deploy", requestState: fromPhase1 })).message).toBe("Invalid or expired requestState");
  });

  it("seals through a custom envelope codec (the seed's KMS shape)", async () => {
    const { createCipheriv, createDecipheriv, randomBytes } = await import("node:crypto");
    const key = randomBytes(32);
    const PREFIX = "kms1.";
    const codec = {
      seal(payload: Uint8Array): string {
        const nonce = randomBytes(12);
        const cipher = createCipheriv("aes-256-gcm", key, nonce).setAAD(Buffer.from(PREFIX));
        const body = Buffer.concat([nonce, cipher.update(payload), cipher.final(), cipher.getAuthTag()]);
        return PREFIX + body.toString("hex");
      },
      unseal(token: string): Uint8Array {
        if (!token.startsWith(PREFIX)) throw new InvalidRequestState("unknown token format");
        const body = token.slice(PREFIX.length);
        const raw = Buffer.from(body, "hex");
        if (raw.toString("hex") !== body) throw new InvalidRequestState("non-canonical hex");
        try {
          const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12)).setAAD(Buffer.from(PREFIX));
          decipher.setAuthTag(raw.subarray(raw.length - 16));
          return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]);
        } catch (error) {
          throw new InvalidRequestState("token failed verification", { cause: error });
        }
      },
    };
    const client = deployer(new RequestStateSecurity({ codec }, quiet));
    const first = await client.result("tools/call", { name: "deploy" });
    expect(first.requestState).toMatch(/^kms1\.[0-9a-f]+$/);
    expect((await client.result("tools/call", { name: "deploy", requestState: first.requestState })).content).toEqual([{ type: "text", text: "phase" }]);
    const tampered = String(first.requestState).replace(/.$/, (c) => (c === "0" ? "1" : "0"));
    expect((await client.error("tools/call", { name: "deploy", requestState: tampered })).message).toBe("Invalid or expired requestState");
  });
});
