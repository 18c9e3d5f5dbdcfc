import { describe, expect, it } from "vitest";
import { inputRequired, isInputRequired } from "mcp-roundtrip/server";
import { validate } from "mcp-roundtrip/validate";
import { ASK_REGION } from "./helpers.js";

describe("inputRequired()", () => {
  it("builds a valid InputRequiredResult from requests, state, or both", () => {
    for (const init of [{ inputRequests: { region: ASK_REGION } }, { requestState: "s" }, { inputRequests: { region: ASK_REGION }, requestState: "" }]) {
      const result = inputRequired(init);
      expect(result.resultType).toBe("input_required");
      expect(isInputRequired(result)).toBe(true);
      expect(validate("InputRequiredResult", result).ok).toBe(true);
    }
  });

  it("enforces the at-least-one rule", () => {
    expect(() => inputRequired({})).toThrow(/at least one/);
    expect(() => inputRequired({ inputRequests: {} })).toThrow(/at least one/);
  });

  it("rejects wrong types with a TypeError", () => {
    expect(() => inputRequired(null as never)).toThrow(TypeError);
    expect(() => inputRequired({ requestState: { step: 1 } as never })).toThrow(/JSON.stringify/);
    expect(() => inputRequired({ inputRequests: [] as never })).toThrow(TypeError);
  });

  it("tells complete results apart", () => {
    expect(isInputRequired({ resultType: "complete", content: [] })).toBe(false);
    expect(isInputRequired(null)).toBe(false);
  });
});

describe("one guard for both sides", () => {
  it("the server's isInputRequired is the client's", async () => {
    const server = await import("mcp-roundtrip/server");
    const client = await import("mcp-roundtrip/client");
    expect(server.isInputRequired).toBe(client.isInputRequired);
  });
});
