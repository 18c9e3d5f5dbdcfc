// Type-level tests: `npx tsc --noEmit` (part of npm test) fails if any of
// these stop holding; vitest runs them too so the suite lists them.
import { describe, expectTypeOf, it } from "vitest";
import type * as Types from "mcp-roundtrip/types";
import {
  ErrorCode,
  INPUT_REQUIRED_METHODS,
  METHOD_TABLE,
  PROTOCOL_VERSION,
  type CallToolRequestParams,
  type CallToolResult,
  type ClientRequestMap,
  type ElicitRequest,
  type ElicitRequestParams,
  type ElicitResult,
  type InputRequest,
  type InputRequestMap,
  type InputRequiredMethod,
  type InputRequiredResult,
  type InputResponse,
  type JSONValue,
  type ReadResourceResult,
} from "mcp-roundtrip/types";
import type { ClientRequestMap as ClientRequestMap2025, ServerRequestMap } from "mcp-roundtrip/types/2025-11-25";
import { validate, validateResult } from "mcp-roundtrip/validate";

describe("ClientRequestMap", () => {
  it("links tools/call to its params and to CallToolResult | InputRequiredResult", () => {
    expectTypeOf<ClientRequestMap["tools/call"]["params"]>().toEqualTypeOf<CallToolRequestParams>();
    expectTypeOf<ClientRequestMap["tools/call"]["result"]>().toEqualTypeOf<CallToolResult | InputRequiredResult>();
    expectTypeOf<ClientRequestMap["prompts/get"]["result"]>().toEqualTypeOf<Types.GetPromptResult | InputRequiredResult>();
    expectTypeOf<ClientRequestMap["tools/list"]["result"]>().toEqualTypeOf<Types.ListToolsResult>();
  });

  it("narrows a result on resultType", () => {
    const handle = (result: ClientRequestMap["tools/call"]["result"]) => {
      if (result.resultType === "input_required") {
        expectTypeOf(result).toEqualTypeOf<InputRequiredResult>();
        return result.requestState;
      }
      expectTypeOf(result).toEqualTypeOf<CallToolResult>();
      return result.content;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<string | undefined | Types.ContentBlock[]>();
  });

  it("types resultType as literals", () => {
    expectTypeOf<CallToolResult["resultType"]>().toEqualTypeOf<"complete">();
    expectTypeOf<InputRequiredResult["resultType"]>().toEqualTypeOf<"input_required">();
    expectTypeOf<Types.ResultType>().toEqualTypeOf<"complete" | "input_required">();
  });

  it("has exactly the client methods of 2026-07-28", () => {
    expectTypeOf<keyof ClientRequestMap>().toEqualTypeOf<
      | "completion/complete"
      | "prompts/get"
      | "prompts/list"
      | "resources/list"
      | "resources/read"
      | "resources/templates/list"
      | "server/discover"
      | "subscriptions/listen"
      | "tools/call"
      | "tools/list"
    >();
  });
});

describe("InputRequestMap and unions", () => {
  it("maps elicitation/create to its request, params and result", () => {
    expectTypeOf<InputRequestMap["elicitation/create"]>().toEqualTypeOf<{ request: ElicitRequest; params: ElicitRequestParams; result: ElicitResult }>();
    expectTypeOf<keyof InputRequestMap>().toEqualTypeOf<"elicitation/create" | "roots/list" | "sampling/createMessage">();
  });

  it("makes InputRequest/InputResponse the unions of the map", () => {
    expectTypeOf<InputRequest>().toEqualTypeOf<InputRequestMap[keyof InputRequestMap]["request"]>();
    expectTypeOf<InputResponse>().toEqualTypeOf<InputRequestMap[keyof InputRequestMap]["result"]>();
  });

  it("lists the input_required-capable methods as a literal tuple", () => {
    expectTypeOf(INPUT_REQUIRED_METHODS).toEqualTypeOf<readonly ["prompts/get", "resources/read", "tools/call"]>();
    expectTypeOf<InputRequiredMethod>().toEqualTypeOf<"prompts/get" | "resources/read" | "tools/call">();
  });
});

describe("corrected value types", () => {
  it("JSONValue admits null and any number", () => {
    expectTypeOf<null>().toExtend<JSONValue>();
    expectTypeOf<1.5>().toExtend<JSONValue>();
    expectTypeOf<{ a: [null, 2.5, "x", true] }>().toExtend<JSONValue>();
  });

  it("elicitation answers admit fractional numbers", () => {
    expectTypeOf<{ action: "accept"; content: { amount: number } }>().toExtend<ElicitResult>();
  });

  it("keeps caching hints required for senders", () => {
    expectTypeOf<ReadResourceResult["ttlMs"]>().toEqualTypeOf<number>();
    expectTypeOf<ReadResourceResult["cacheScope"]>().toEqualTypeOf<"private" | "public">();
  });

  it("gives aliased definitions their own name", () => {
    expectTypeOf<Types.EmptyResult>().toEqualTypeOf<Types.Result>();
    expectTypeOf<Types.ClientResult>().toEqualTypeOf<Types.Result>();
  });
});

describe("constants and tables", () => {
  it("pins the protocol version and error codes as literals", () => {
    expectTypeOf(PROTOCOL_VERSION).toEqualTypeOf<"2026-07-28">();
    expectTypeOf(ErrorCode.UnsupportedProtocolVersion).toEqualTypeOf<-32022>();
    expectTypeOf(METHOD_TABLE["tools/call"].result).toEqualTypeOf<"CallToolResult">();
    expectTypeOf(METHOD_TABLE["tools/call"].inputRequired).toEqualTypeOf<true>();
  });

  it("types validate's value by the definition name", () => {
    const checked = validate("CallToolRequest", {});
    if (checked.ok) expectTypeOf(checked.value).toEqualTypeOf<Types.CallToolRequest>();
    const result = validateResult("tools/call", {});
    expectTypeOf(result.ok).toEqualTypeOf<boolean>();
  });
});

describe("2025-11-25", () => {
  it("has its own request maps, without resultType", () => {
    expectTypeOf<ClientRequestMap2025["initialize"]["result"]>().toEqualTypeOf<import("mcp-roundtrip/types/2025-11-25").InitializeResult>();
    expectTypeOf<ServerRequestMap["elicitation/create"]["result"]>().toEqualTypeOf<import("mcp-roundtrip/types/2025-11-25").ElicitResult>();
    expectTypeOf<ClientRequestMap2025["tools/call"]["result"]>().toEqualTypeOf<import("mcp-roundtrip/types/2025-11-25").CallToolResult>();
  });
});
