// A revision adapter's hooks as the server applies them (runtime/server/adapt.ts):
// params wire → model, results model → wire (a hook sees the request's model params),
// the wire check after mapping, notifications, and defineAdapter's argument checks.
// The end-to-end flow (a breaking revision added, its adapter file written, the
// revision served) is test/codegen/breaking-revision.test.ts.
import { describe, expect, it } from "vitest";
import { type AdaptedRequest, type AdapterExchange, defineAdapter, invalidParams, notificationToWire } from "../../runtime/protocol/adapter.js";
import { adaptRequest, handlerRevisionOf, paramsToModel, resultToWire } from "../../runtime/server/adapt.js";

const REVISION = "2026-07-28"; // a revision with generated tables, standing in for a breaking one

const adapter = defineAdapter({
  model: "2026-07-28",
  requests: { "tools/call": (params) => ({ ...params, name: params.tool, tool: undefined }) },
  results: {
    "tools/call": (result, { params }) => ({ ...result, content: [{ type: "text", text: `${String(params.name)}: ${JSON.stringify(result.content)}` }] }),
    "*": (result) => ({ ...result, resultType: "complete" }),
  },
  notifications: { "notifications/progress": (params) => ({ ...params, message: `wire ${String(params.message)}` }) },
});
const adapted = (method: string, params: Record<string, unknown>): AdaptedRequest => {
  const exchange: AdapterExchange = { revision: REVISION, method, params, wireParams: params };
  return { adapter, exchange };
};

describe("a revision adapter on the server's path", () => {
  it("maps a request's params wire → model, and leaves methods without a hook as they are", () => {
    expect(paramsToModel(adapter, REVISION, "tools/call", { tool: "greet" })).toEqual({ name: "greet", tool: undefined });
    const params = { cursor: "c" };
    expect(paramsToModel(adapter, REVISION, "tools/list", params)).toBe(params);
  });

  it("maps a result model → wire with the request's params in hand, then checks it against the wire schema", () => {
    const result = resultToWire(adapted("tools/call", { name: "greet" }), { resultType: "complete", content: [] }, true);
    expect(result.content).toEqual([{ type: "text", text: "greet: []" }]);
    // "*" maps every method without a hook of its own.
    expect(resultToWire(adapted("prompts/list", {}), { prompts: [] }, true)).toEqual({ prompts: [], resultType: "complete" });
  });

  it("refuses, as -32603 naming the adapter file, a mapped result the wire schema rejects or a hook that throws", () => {
    const broken = defineAdapter({ model: "2026-07-28", results: { "tools/list": () => ({ resultType: "complete", tools: "none" }) } });
    const exchange = { revision: REVISION, method: "tools/list", params: {}, wireParams: {} };
    expect(() => resultToWire({ adapter: broken, exchange }, { tools: [] }, true)).toThrow(
      /the tools\/list result, mapped by the 2026-07-28 adapter \(runtime\/adapters\/2026-07-28\.ts\), does not match 2026-07-28's schema: .*\/tools/,
    );
    expect(resultToWire({ adapter: broken, exchange }, { tools: [] }, false)).toEqual({ resultType: "complete", tools: "none" });
    const throwing = defineAdapter({
      model: "2026-07-28",
      requests: {
        "*": () => {
          throw new Error("boom");
        },
      },
    });
    expect(() => paramsToModel(throwing, REVISION, "tools/list", {})).toThrow(
      expect.objectContaining({ code: -32603, message: expect.stringContaining("threw while mapping the tools/list params") }),
    );
  });

  it("offers a tools/call's hooks the called tool's listing entry and the wire params, looking the tool up for tools/call only", () => {
    const seen: AdapterExchange[] = [];
    const recording = defineAdapter({ model: "2026-07-28", requests: { "*": (params, exchange) => (seen.push(exchange), { ...params, mapped: true }) } });
    const looked: string[] = [];
    const listed = (name: string) => (looked.push(name), name === "greet" ? { name, inputSchema: { type: "object" } } : undefined);
    const call = adaptRequest(recording, REVISION, "tools/call", { name: "greet", wire: 1 }, listed);
    expect(call.exchange).toEqual({
      revision: REVISION,
      method: "tools/call",
      params: { name: "greet", wire: 1, mapped: true },
      wireParams: { name: "greet", wire: 1 },
      tool: { name: "greet", inputSchema: { type: "object" } },
    });
    expect(seen[0]!.tool).toEqual({ name: "greet", inputSchema: { type: "object" } }); // the requests hook has it too
    expect(adaptRequest(recording, REVISION, "tools/call", { name: "gone" }, listed).exchange.tool).toBeUndefined();
    expect(adaptRequest(recording, REVISION, "prompts/get", { name: "greet" }, listed).exchange.tool).toBeUndefined();
    expect(looked).toEqual(["greet", "gone"]);
  });

  it("lets a requests hook refuse a request with -32602 (invalidParams); any other throw stays -32603", () => {
    const refusing = defineAdapter({
      model: "2026-07-28",
      requests: {
        "tools/call": () => {
          throw invalidParams("/params/requestedOutputs/0 asks for user/content, which the tool does not declare", { selector: "user/content" });
        },
      },
    });
    expect(() => paramsToModel(refusing, REVISION, "tools/call", { name: "greet" })).toThrow(
      expect.objectContaining({
        code: -32602,
        message: "Invalid params: /params/requestedOutputs/0 asks for user/content, which the tool does not declare",
        data: { selector: "user/content" },
      }),
    );
    // A results hook cannot refuse: the handler already ran, so the failure is the server's.
    const late = defineAdapter({
      model: "2026-07-28",
      results: {
        "*": () => {
          throw invalidParams("too late");
        },
      },
    });
    const exchange = { revision: REVISION, method: "tools/list", params: {}, wireParams: {} };
    expect(() => resultToWire({ adapter: late, exchange }, { tools: [] }, true)).toThrow(expect.objectContaining({ code: -32603 }));
  });

  it("maps notifications sent while an adapted request is answered", () => {
    const note = { jsonrpc: "2.0" as const, method: "notifications/progress", params: { progressToken: 1, progress: 1, message: "half" } };
    expect(notificationToWire(adapted("tools/call", {}), note).params).toEqual({ progressToken: 1, progress: 1, message: "wire half" });
    const log = { jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info", data: 1 } };
    expect(notificationToWire(adapted("tools/call", {}), log)).toBe(log);
  });

  it("checks a handler's result against the model's schema when the request is adapted", () => {
    expect(
      handlerRevisionOf({ protocolVersion: "2027-01-01", adapted: { adapter, exchange: { revision: "2027-01-01", method: "m", params: {}, wireParams: {} } } }),
    ).toBe("2026-07-28");
    expect(handlerRevisionOf({ protocolVersion: "2027-01-01", adapted: undefined })).toBe("2027-01-01");
  });

  it.each<[string, unknown, RegExp]>([
    ["no definition", undefined, /expected \{ model, requests\?, results\?, notifications\? \}/],
    ["a model that is not a revision", { model: "latest" }, /"model" expected the revision the hooks map to and from, e\.g\. "2026-07-28".*got "latest"/],
    ["hooks that are not an object", { model: "2026-07-28", results: [] }, /"results" expected an object of hooks by method, got an array/],
    ["a hook that is not a function", { model: "2026-07-28", requests: { "tools/call": "rename" } }, /requests\["tools\/call"\] expected a function/],
  ])("defineAdapter refuses %s", (_name, definition, message) => {
    expect(() => defineAdapter(definition as never)).toThrow(message);
  });
});
