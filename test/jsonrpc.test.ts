import { describe, expect, it } from "vitest";
import { McpError, JsonRpcErrorCode, isJsonRpcRequest, isJsonRpcNotification, isJsonRpcResponse } from "mcp-roundtrip/server";

describe("McpError", () => {
  it("serialises to the wire shape, omitting absent data", () => {
    expect(new McpError(JsonRpcErrorCode.MethodNotFound, "Method not found: x").toJSON()).toEqual({
      code: -32601,
      message: "Method not found: x",
    });
    expect(new McpError(-32602, "bad", { field: "name" }).toJSON()).toEqual({ code: -32602, message: "bad", data: { field: "name" } });
  });
  it("round-trips through fromObject", () => {
    const error = McpError.fromObject({ code: -32021, message: "missing", data: { requiredCapabilities: {} } });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(-32021);
    expect(error.data).toEqual({ requiredCapabilities: {} });
  });
});

describe("message guards", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "tools/list" }, "request"],
    [{ jsonrpc: "2.0", method: "notifications/cancelled" }, "notification"],
    [{ jsonrpc: "2.0", id: 1, result: {} }, "response"],
    [{ jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" } }, "response"],
    [[1, 2], "none"],
    [null, "none"],
  ])("classifies %j as %s", (message, kind) => {
    const got = isJsonRpcRequest(message) ? "request" : isJsonRpcNotification(message) ? "notification" : isJsonRpcResponse(message) ? "response" : "none";
    expect(got).toBe(kind);
  });
});
