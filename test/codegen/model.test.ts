import { describe, expect, it } from "vitest";
import { buildModel, errorCodeName } from "../../codegen/model.js";
import type { SchemaDocument, SchemaNode } from "../../codegen/json.js";

const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const request = (method: string, params?: string): SchemaNode => ({
  type: "object",
  properties: { id: ref("RequestId"), method: { const: method }, ...(params ? { params: ref(params) } : {}) },
});
const schema = (defs: Record<string, SchemaNode>): SchemaDocument => ({ $defs: { RequestId: { type: ["string", "integer"] }, ...defs } });

describe("errorCodeName", () => {
  it.each([
    ["ParseError", "ParseError"],
    ["InternalError", "InternalError"],
    ["InvalidParamsError", "InvalidParams"],
    ["UnsupportedProtocolVersionError", "UnsupportedProtocolVersion"],
    ["URLElicitationRequiredError", "URLElicitationRequired"],
  ])("%s → %s", (given, want) => {
    expect(errorCodeName(given)).toBe(want);
  });
});

describe("buildModel", () => {
  const cases: Array<[string, { given: SchemaDocument; want: Record<string, unknown> }]> = [
    [
      "reads the result and input_required from XResultResponse",
      {
        given: schema({
          ClientRequest: { anyOf: [ref("CallToolRequest")] },
          CallToolRequest: request("tools/call", "CallToolRequestParams"),
          CallToolRequestParams: { type: "object" },
          CallToolResult: { type: "object" },
          InputRequiredResult: { type: "object" },
          CallToolResultResponse: { properties: { result: { anyOf: [ref("InputRequiredResult"), ref("CallToolResult")] } } },
        }),
        want: {
          method: "tools/call",
          direction: "client",
          request: "CallToolRequest",
          params: "CallToolRequestParams",
          result: "CallToolResult",
          response: "CallToolResultResponse",
          inputRequired: true,
        },
      },
    ],
    [
      "falls back to XResult by name when there is no response definition",
      {
        given: schema({ ClientRequest: { anyOf: [ref("InitializeRequest")] }, InitializeRequest: request("initialize"), InitializeResult: { type: "object" } }),
        want: { method: "initialize", params: null, result: "InitializeResult", response: null, inputRequired: false },
      },
    ],
    [
      "falls back to EmptyResult for requests that answer nothing",
      {
        given: schema({ ClientRequest: { anyOf: [ref("PingRequest")] }, PingRequest: request("ping"), EmptyResult: ref("Result"), Result: { type: "object" } }),
        want: { method: "ping", result: "EmptyResult" },
      },
    ],
    [
      "marks requests inside an InputRequiredResult as direction input",
      {
        given: schema({ InputRequest: { anyOf: [ref("ElicitRequest")] }, ElicitRequest: request("elicitation/create"), ElicitResult: { type: "object" } }),
        want: { method: "elicitation/create", direction: "input", result: "ElicitResult" },
      },
    ],
  ];

  it.each(cases)("%s", (_label, { given, want }) => {
    const model = buildModel("test", given, {});
    expect(model.methods).toHaveLength(1);
    expect(model.methods[0]).toMatchObject(want);
  });

  it("fails naming the request whose result cannot be found", () => {
    const given = schema({ ClientRequest: { anyOf: [ref("FooRequest")] }, FooRequest: request("foo") });
    expect(() => buildModel("test", given, {})).toThrow(/cannot find a result for FooRequest/);
  });

  it("fails when two definitions claim one method", () => {
    const given = schema({
      ClientRequest: { anyOf: [ref("PingRequest")] },
      ServerRequest: { anyOf: [ref("OtherPingRequest")] },
      PingRequest: request("ping"),
      OtherPingRequest: request("ping"),
      EmptyResult: { type: "object" },
    });
    expect(() => buildModel("test", given, {})).toThrow(/ping is defined by both PingRequest and OtherPingRequest/);
  });

  it("accepts one definition listed in two directions (2025 ping)", () => {
    const given = schema({
      ClientRequest: { anyOf: [ref("PingRequest")] },
      ServerRequest: { anyOf: [ref("PingRequest")] },
      PingRequest: request("ping"),
      EmptyResult: { type: "object" },
    });
    expect(buildModel("test", given, {}).methods.map((entry) => entry.direction)).toEqual(["client", "server"]);
  });

  it("takes a single-message union (2026 ClientNotification) as the one notification it copies", () => {
    const cancelled = { properties: { method: { const: "notifications/cancelled" }, params: ref("CancelledNotificationParams") } };
    const given = schema({ ClientNotification: cancelled, CancelledNotification: cancelled, CancelledNotificationParams: { type: "object" } });
    expect(buildModel("test", given, {}).notifications).toEqual([
      { method: "notifications/cancelled", direction: "client", notification: "CancelledNotification", params: "CancelledNotificationParams" },
    ]);
  });

  it("keeps the union's own name when no other definition has its method", () => {
    const given = schema({
      ClientNotification: { properties: { method: { const: "notifications/cancelled" }, params: ref("CancelledNotificationParams") } },
      CancelledNotificationParams: { type: "object" },
    });
    expect(buildModel("test", given, {}).notifications[0]!.notification).toBe("ClientNotification");
  });

  it("collects error codes from error definitions and the overlay, most negative last", () => {
    const given = schema({
      ParseError: { properties: { code: { const: -32700 } } },
      HeaderMismatchError: { properties: { error: { allOf: [ref("Error"), { properties: { code: { const: -32020 } } }] } } },
      Error: { properties: { code: { type: "integer" } } },
    });
    expect(buildModel("test", given, { MethodNotFound: -32601 }).errorCodes).toEqual([
      ["HeaderMismatch", -32020],
      ["MethodNotFound", -32601],
      ["ParseError", -32700],
    ]);
  });
});

describe("input kinds", () => {
  const capabilities = (members: Record<string, SchemaNode>): SchemaNode => ({ type: "object", properties: members });
  const withInput = (defs: Record<string, SchemaNode>): SchemaDocument =>
    schema({
      InputRequiredResult: { type: "object" },
      ClientCapabilities: capabilities({
        elicitation: { type: "object", properties: { form: { type: "object" }, url: { type: "object" } } },
        confirmation: { type: "object" },
        extensions: { type: "object" },
      }),
      ElicitRequest: request("elicitation/create", "ElicitRequestParams"),
      ElicitRequestParams: { anyOf: [ref("FormParams"), ref("UrlParams")] },
      FormParams: { type: "object", properties: { mode: { const: "form" }, message: { type: "string" } }, required: ["message"] },
      UrlParams: { type: "object", properties: { mode: { const: "url" }, url: { type: "string" } }, required: ["mode", "url"] },
      ElicitResult: { type: "object" },
      ...defs,
    });

  it("names each kind's capability by its method's first segment, and a discriminating param's sub-capability", () => {
    const model = buildModel(
      "2027-01-01",
      withInput({
        InputRequest: { anyOf: [ref("ElicitRequest"), ref("ConfirmationCreateRequest")] },
        ConfirmationCreateRequest: request("confirmation/create", "ConfirmationParams"),
        ConfirmationParams: { type: "object", properties: { message: { type: "string" } } },
        ConfirmationCreateResult: { type: "object" },
      }),
      {},
    );
    expect(model.inputKinds).toEqual([
      {
        method: "confirmation/create",
        request: "ConfirmationCreateRequest",
        params: "ConfirmationParams",
        result: "ConfirmationCreateResult",
        capability: "confirmation",
        rules: [],
      },
      {
        method: "elicitation/create",
        request: "ElicitRequest",
        params: "ElicitRequestParams",
        result: "ElicitResult",
        capability: "elicitation",
        rules: [{ kind: "discriminator", param: "mode", values: ["form", "url"], fallback: "form" }],
      },
    ]);
  });

  it("refuses a kind whose capability the schema does not define, naming the method and the member it looked for", () => {
    const given = withInput({
      InputRequest: { anyOf: [ref("ApprovalAskRequest")] },
      ApprovalAskRequest: request("approval/ask"),
      ApprovalAskResult: { type: "object" },
    });
    expect(() => buildModel("2027-01-01", given, {})).toThrow(/approval\/ask .*ClientCapabilities has no member "approval"/);
  });

  it("takes the handshake era's back-channel requests a callback answers, not ping or the task methods", () => {
    const { InputRequiredResult: _none, ...handshake } = withInput({}).$defs;
    const model = buildModel(
      "2025-11-25",
      schema({
        ...handshake,
        ServerRequest: { anyOf: [ref("ElicitRequest"), ref("PingRequest"), ref("GetTaskRequest")] },
        PingRequest: request("ping"),
        GetTaskRequest: request("tasks/get"),
        EmptyResult: { type: "object" },
        GetTaskResult: { type: "object" },
      }),
      {},
    );
    expect(model.inputKinds.map((kind) => kind.method)).toEqual(["elicitation/create"]);
  });
});
