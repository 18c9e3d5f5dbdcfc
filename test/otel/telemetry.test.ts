// OpenTelemetry spans through the SDK's in-memory exporter: one span per
// request with method, target, round, result type and, for a refused
// requestState, the real reason; never a token, a key, arguments or state.
import { propagation } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { Client, type InputRequiredResult } from "mcp-roundtrip/client";
import { serveHttp } from "mcp-roundtrip/node";
import { SpanAttribute, telemetry } from "mcp-roundtrip/ext/otel";
import { inputRequired, McpServer, RequestStateSecurity } from "mcp-roundtrip/server";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer("telemetry-test");
const KEY = new Uint8Array(32).fill(9);
const OTHER_KEY = new Uint8Array(32).fill(10);
const quiet = { warn: () => {} };

function server(key = KEY) {
  const mcp = new McpServer(
    { name: "otel-test", version: "1.0.0" },
    { requestStateSecurity: new RequestStateSecurity({ keys: [key] }, { audience: "otel-test", logger: quiet }), logger: { ...quiet, error: () => {} } },
  );
  mcp.tool("deploy", { inputSchema: { type: "object", properties: { app: { type: "string" } } } }, (_args, ctx) => {
    if (ctx.inputResponses?.ok === undefined) {
      return inputRequired({
        inputRequests: { ok: { method: "elicitation/create", params: { mode: "form", message: "Deploy?", requestedSchema: { type: "object", properties: {} } } } },
        requestState: "secret-state-do-not-trace",
      });
    }
    return { content: [{ type: "text", text: "deployed" }] };
  });
  mcp.tool("boom", {}, () => {
    throw new Error("handler failure with a password=hunter2 in it");
  });
  mcp.prompt("greet", {}, () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
  mcp.resource("config://app", { name: "config" }, () => "v1");
  mcp.server.use(telemetry({ tracer }), { outermost: true });
  return mcp;
}

const onElicit = async () => ({ action: "accept" as const, content: {} });
afterEach(() => exporter.reset());

/** A span ends once its answer has been written, on the event loop's next turn: let that turn pass first. */
const answered = () => new Promise((resolve) => setImmediate(resolve));
const spansOf = () => exporter.getFinishedSpans().map((span) => ({ name: span.name, status: span.status.code, attributes: span.attributes }));

describe("telemetry()", () => {
  it("records one span per round of an MRTR call, with the round and result type", async () => {
    const client = await Client.connect(server(), { onElicit });
    await client.callTool("deploy", { app: "shop" });
    await answered();
    const spans = spansOf().filter((span) => span.name === "tools/call deploy");
    expect(spans).toHaveLength(2);
    expect(spans[0]!.attributes).toMatchObject({
      [SpanAttribute.method]: "tools/call",
      [SpanAttribute.toolName]: "deploy",
      [SpanAttribute.round]: 1,
      [SpanAttribute.inputResponses]: 0,
      [SpanAttribute.resultType]: "input_required",
      [SpanAttribute.inputRequests]: 1,
    });
    expect(spans[1]!.attributes).toMatchObject({ [SpanAttribute.round]: 2, [SpanAttribute.inputResponses]: 1, [SpanAttribute.resultType]: "complete" });
    await client.close();
  });

  it("names the rejection reason of a refused requestState, and never records tokens, state or arguments", async () => {
    const minting = await Client.connect(server(), { onElicit });
    const first = (await minting.session.callTool("deploy", { app: "shop" }, { allowInputRequired: true })) as InputRequiredResult;
    const stranger = await Client.connect(server(OTHER_KEY), { onElicit });
    await expect(
      stranger.session.callTool(
        "deploy",
        { app: "shop" },
        { allowInputRequired: true, requestState: first.requestState!, inputResponses: { ok: { action: "accept", content: {} } } },
      ),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      minting.session.callTool(
        "deploy",
        { app: "other" },
        { allowInputRequired: true, requestState: first.requestState!, inputResponses: { ok: { action: "accept", content: {} } } },
      ),
    ).rejects.toMatchObject({ code: -32602 });
    const refused = spansOf().filter((span) => span.attributes[SpanAttribute.rejectionReason] !== undefined);
    expect(refused.map((span) => span.attributes[SpanAttribute.rejectionReason])).toEqual(["unknown_key", "arguments_mismatch"]);
    for (const span of refused) {
      expect(span.status).toBe(2); // ERROR
      expect(span.attributes).toMatchObject({ [SpanAttribute.errorCode]: -32602, [SpanAttribute.round]: 2 });
    }
    await answered();
    const everything = JSON.stringify(exporter.getFinishedSpans().map((span) => [span.name, span.attributes, span.status, span.events]));
    expect(everything).not.toContain(first.requestState!.slice(3, 30));
    expect(everything).not.toContain("secret-state");
    expect(everything).not.toContain("shop");
    await minting.close();
    await stranger.close();
  });

  it("records a handler's failure by class only, and prompts and resources by name and URI", async () => {
    const client = await Client.connect(server(), { onElicit });
    await expect(client.callTool("boom", {})).rejects.toBeDefined();
    await client.getPrompt("greet");
    await client.readResource("config://app");
    await answered();
    const spans = spansOf();
    const boom = spans.find((span) => span.name === "tools/call boom")!;
    expect(boom.attributes[SpanAttribute.errorType]).toBe("Error");
    expect(JSON.stringify(boom)).not.toContain("hunter2");
    expect(spans.find((span) => span.name === "prompts/get greet")!.attributes[SpanAttribute.promptName]).toBe("greet");
    expect(spans.find((span) => span.name === "resources/read config://app")!.attributes[SpanAttribute.resourceUri]).toBe("config://app");
    await client.close();
  });

  it("continues a trace from the traceparent header over HTTP", async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const handle = await serveHttp(server());
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } },
    };
    const response = await fetch(handle.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
        traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    await response.text();
    await handle.close();
    const span = exporter.getFinishedSpans().find((candidate) => candidate.name === "tools/list")!;
    expect(span.spanContext().traceId).toBe(traceId);
    expect(span.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    propagation.disable();
  });
});
