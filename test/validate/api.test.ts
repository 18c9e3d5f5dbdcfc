import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { validate, validateNotification, validateParams, validateRequest, validateResult } from "mcp-roundtrip/validate";
import { eraOf } from "../../codegen/emit-revisions.js";
import { tablesOfRevision } from "../../runtime/validate/revisions.js";
import { TABLES_2026 } from "../../runtime/validate/tables-2026.js";
import { example } from "../support/examples.js";
import { PINNED_REVISIONS } from "../support/schema.js";

describe("validate", () => {
  it("returns the value itself when valid", () => {
    const value = { type: "text", text: "hi" };
    const checked = validate("TextContent", value);
    expect(checked).toEqual({ ok: true, value });
    expect(checked.ok && checked.value).toBe(value);
  });

  it("throws TypeError for a name that is no definition", () => {
    expect(() => validate("NoSuchThing" as never, {})).toThrow(TypeError);
    expect(() => validate("NoSuchThing" as never, {})).toThrow(/"NoSuchThing" is not a definition of MCP 2026-07-28/);
  });

  it("does not treat inherited object keys as definitions", () => {
    expect(() => validate("toString" as never, {})).toThrow(TypeError);
  });

  it("throws RangeError for an unknown revision, listing the known ones", () => {
    expect(() => validate("TextContent", {}, { revision: "2024-01-01" as never })).toThrow(RangeError);
    expect(() => validate("TextContent", {}, { revision: "toString" as never })).toThrow(`revision must be one of ${PINNED_REVISIONS.join(", ")}`);
  });

  it.each(PINNED_REVISIONS)("checks against the %s schema when asked (every pinned revision, through the generated index)", (revision) => {
    const text = { type: "text", text: "hi" };
    expect(validate("TextContent", text, { revision: revision as never }).ok).toBe(true);
    expect(validate("TextContent", { type: "text" }, { revision: revision as never }).ok).toBe(false);
  });

  it("checks against the 2025-11-25 schema on request", () => {
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "c", version: "1" } },
    };
    expect(validate("InitializeRequest", initialize, { revision: "2025-11-25" }).ok).toBe(true);
    expect(() => validate("InitializeRequest" as never, initialize)).toThrow(TypeError);
    // 2025-era results carry no resultType.
    expect(validateResult("tools/call", { content: [] }, { revision: "2025-11-25" }).ok).toBe(true);
    expect(validateResult("tools/call", { content: [] }).ok).toBe(false);
  });

  it("reports the root as the path when the value itself has the wrong type", () => {
    const checked = validate("TextContent", "text");
    expect(checked.ok ? null : checked.issues).toEqual([{ path: "", message: "must be object" }]);
    expect(checked.ok ? "" : checked.message).toBe("Invalid TextContent: (root) must be object");
  });

  it("escapes member names in paths as JSON Pointer", () => {
    const checked = validate("ElicitResult", { action: "accept", content: { "a/b": { deep: true } } });
    expect(checked.ok ? [] : checked.issues.map((issue) => issue.path)).toContain("/content/a~1b");
  });

  it("never throws, whatever JSON it is given", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        for (const name of ["CallToolRequest", "InputRequiredResult", "JSONRPCMessage", "ContentBlock"] as const) {
          const checked = validate(name, value);
          if (!checked.ok) {
            expect(checked.issues.length).toBeGreaterThan(0);
            for (const issue of checked.issues) expect(checked.message).toContain(issue.path === "" ? "(root)" : issue.path);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it("accepts any JSON value as a JSONValue (null and fractions included)", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => validate("JSONValue", value).ok));
  });
});

describe("validateRequest / validateParams / validateResult", () => {
  const callTool = example("CallToolRequest", "call-tool-request");

  it("look the definitions up by method", () => {
    expect(validateRequest("tools/call", callTool).ok).toBe(true);
    expect(validateParams("tools/call", callTool.params).ok).toBe(true);
    expect(validateResult("tools/call", example("CallToolResult", "result-with-structured-content")).ok).toBe(true);
  });

  it("accept an InputRequiredResult only where the method allows one", () => {
    const inputRequired = example("InputRequiredResult", "input-required-result-with-request-state-only");
    for (const method of ["tools/call", "prompts/get", "resources/read"]) expect(validateResult(method, inputRequired).ok).toBe(true);
    for (const method of ["tools/list", "completion/complete", "server/discover"]) expect(validateResult(method, inputRequired).ok).toBe(false);
  });

  it("validate input requests and responses by method", () => {
    const elicit = example("ElicitRequest", "elicitation-request");
    expect(validateRequest("elicitation/create", elicit).ok).toBe(true);
    expect(validateResult("elicitation/create", { action: "accept", content: { n: 1.5 } }).ok).toBe(true);
    expect(validateParams("roots/list", {}).ok).toBe(true);
  });

  it.each([
    ["validateRequest", validateRequest, "/method"],
    ["validateParams", validateParams, ""],
    ["validateResult", validateResult, ""],
  ] as const)("%s answers an unknown method with an issue, not an exception", (_name, fn, path) => {
    const checked = fn("tools/explode", {});
    expect(checked.ok).toBe(false);
    expect(checked.ok ? [] : checked.issues).toEqual([{ path, message: 'names no method of this revision ("tools/explode")' }]);
  });

  it("validateNotification looks the notification up by method", () => {
    const cancelled = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "user" } };
    expect(validateNotification("notifications/cancelled", cancelled).ok).toBe(true);
    const checked = validateNotification("notifications/cancelled", { ...cancelled, params: { requestId: {} } });
    expect(checked.ok ? [] : checked.issues.map((issue) => issue.path)).toEqual(["/params/requestId"]);
    expect(validateNotification("notifications/initialized", { jsonrpc: "2.0", method: "notifications/initialized" }).ok).toBe(false);
    expect(validateNotification("notifications/initialized", { jsonrpc: "2.0", method: "notifications/initialized" }, { revision: "2025-11-25" }).ok).toBe(true);
  });

  it("treats a method named like an Object.prototype key as unknown", () => {
    expect(validateRequest("constructor", {}).ok).toBe(false);
  });
});

describe("generated validators at run time", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it("need neither eval nor new Function", async () => {
    const forbidden = () => {
      throw new Error("code generation at run time");
    };
    vi.resetModules();
    vi.stubGlobal("Function", new Proxy(Function, { construct: forbidden, apply: forbidden }));
    vi.stubGlobal("eval", forbidden);
    // vi.resetModules() makes this a fresh evaluation under the stubs.
    const fresh = await import("../../generated/2026-07-28/validators.js");
    expect(fresh.CallToolRequest(example("CallToolRequest", "call-tool-request"))).toBe(true);
    expect(fresh.methodValidators["tools/call"].result({ resultType: "complete", content: [{ type: "text" }] })).toBe(false);
  });

  it.each(PINNED_REVISIONS)("contain no eval, new Function or require (%s)", (revision) => {
    const code = readFileSync(fileURLToPath(new URL(`../../generated/${revision}/validators.js`, import.meta.url)), "utf8");
    expect(code).not.toMatch(/\beval\s*\(|new\s+Function\b|\bFunction\s*\(|\brequire\s*\(|^\s*import\s/m);
  });
});

describe("tablesOfRevision (the per-request profile's lookup)", () => {
  it.each(PINNED_REVISIONS)("%s: a modern revision's tables, none for a handshake-era one", (revision) => {
    const tables = tablesOfRevision(revision);
    if (eraOf(revision) === "legacy") expect(tables).toBeUndefined();
    else expect(tables?.revision).toBe(revision);
  });

  it("is the same tables object the 2026 profile uses today, and knows no inherited key", () => {
    expect(tablesOfRevision("2026-07-28")).toBe(TABLES_2026);
    expect(tablesOfRevision("toString")).toBeUndefined();
    expect(tablesOfRevision("2031-01-01")).toBeUndefined();
  });
});
