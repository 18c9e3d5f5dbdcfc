import { describe, expect, it } from "vitest";
import { validate, validateParams, validateRequest, validateResult } from "mcp-roundtrip/validate";
import { example, mutate, REMOVE } from "../support/examples.js";

// Each case starts from one of the spec's valid examples and breaks exactly
// one thing, so the only acceptable failure is the one at `path`.
type Check = (value: unknown) => ReturnType<typeof validate>;
const byDefinition =
  (name: string): Check =>
  (value) =>
    validate(name, value);

const callTool = example("CallToolRequest", "call-tool-request");
const textResult = example("CallToolResult", "result-with-unstructured-text");
const inputRequired = example("InputRequiredResult", "input-required-result-with-elicitation-and-sampling-and-request-state");
const tool = example("Tool", "with-default-2020-12-input-schema");
const listTools = example("ListToolsResult", "tools-list-with-cursor-and-ttl");
const getPrompt = example("GetPromptRequest", "get-prompt-request");
const readResource = example("ReadResourceRequest", "read-resource-request");
const image = example("ImageContent", "image-png-content-with-annotations");
const resource = example("Resource", "file-resource-with-annotations");
const logging = example("LoggingMessageNotification", "log-database-connection-failed");
const progress = example("ProgressNotification", "progress-message");
const sampling = example("CreateMessageRequest", "sampling-request");
const discover = example("DiscoverResult", "server-capabilities-discovery");
const invalidParams = example("InvalidParamsError", "unknown-tool");
const elicitResult = example("ElicitResult", "input-multiple-fields");
const text = example("TextContent", "text-content");
const completeRequest = example("CompleteRequest", "completion-request");

const cases: Array<[string, { check: Check; value: unknown; path: string }]> = [
  ["tools/call without a tool name", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/name", REMOVE), path: "/params/name" }],
  ["tools/call with a numeric tool name", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/name", 7), path: "/params/name" }],
  ["tools/call with array arguments", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/arguments", [1]), path: "/params/arguments" }],
  ["tools/call with jsonrpc 1.0", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/jsonrpc", "1.0"), path: "/jsonrpc" }],
  ["tools/call with a null id", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/id", null), path: "/id" }],
  ["tools/call with a misspelt method", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/method", "tools/cal"), path: "/method" }],
  ["tools/call without request _meta", { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/_meta", REMOVE), path: "/params/_meta" }],
  [
    "tools/call with a numeric requestState",
    { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/requestState", 42), path: "/params/requestState" },
  ],
  [
    "tools/call with a non-object input response",
    { check: byDefinition("CallToolRequest"), value: mutate(callTool, "/params/inputResponses", { q1: "yes" }), path: "/params/inputResponses/q1" },
  ],
  ["tools/call request checked by method", { check: (v) => validateRequest("tools/call", v), value: mutate(callTool, "/params/name", null), path: "/params/name" }],
  ["tools/call params checked by method", { check: (v) => validateParams("tools/call", v), value: mutate(callTool.params, "/arguments", "x"), path: "/arguments" }],
  ["a result whose content is not an array", { check: byDefinition("CallToolResult"), value: mutate(textResult, "/content", "hi"), path: "/content" }],
  ["a text block without text", { check: byDefinition("CallToolResult"), value: mutate(textResult, "/content/0/text", REMOVE), path: "/content/0/text" }],
  ["a content block of unknown type", { check: byDefinition("CallToolResult"), value: mutate(textResult, "/content/0/type", "txt"), path: "/content/0/type" }],
  [
    "a complete result claiming input_required",
    { check: byDefinition("CallToolResult"), value: mutate(textResult, "/resultType", "input_required"), path: "/resultType" },
  ],
  ["isError as a string", { check: byDefinition("CallToolResult"), value: mutate(textResult, "/isError", "yes"), path: "/isError" }],
  [
    "an unknown resultType on tools/call",
    { check: (v) => validateResult("tools/call", v), value: mutate(textResult, "/resultType", "partial"), path: "/resultType" },
  ],
  [
    "a complete tools/call result with a broken block",
    { check: (v) => validateResult("tools/call", v), value: mutate(textResult, "/content/0/text", 1), path: "/content/0/text" },
  ],
  [
    "an input request of unknown method",
    {
      check: byDefinition("InputRequiredResult"),
      value: mutate(inputRequired, "/inputRequests/github_login/method", "elicit"),
      path: "/inputRequests/github_login/method",
    },
  ],
  [
    "an elicitation without a message",
    {
      check: byDefinition("InputRequiredResult"),
      value: mutate(inputRequired, "/inputRequests/github_login/params/message", REMOVE),
      path: "/inputRequests/github_login/params/message",
    },
  ],
  [
    "an input_required tools/call result with a numeric state",
    { check: (v) => validateResult("tools/call", v), value: mutate(inputRequired, "/requestState", 5), path: "/requestState" },
  ],
  ["an elicitation answer with an unknown action", { check: byDefinition("ElicitResult"), value: mutate(elicitResult, "/action", "maybe"), path: "/action" }],
  [
    "an elicitation answer holding an object",
    { check: byDefinition("ElicitResult"), value: mutate(elicitResult, "/content/age", { years: 30 }), path: "/content/age" },
  ],
  ["image data that is not base64", { check: byDefinition("ImageContent"), value: mutate(image, "/data", "not base64!"), path: "/data" }],
  ["a resource uri without a scheme", { check: byDefinition("Resource"), value: mutate(resource, "/uri", "just words"), path: "/uri" }],
  ["a tool without inputSchema", { check: byDefinition("Tool"), value: mutate(tool, "/inputSchema", REMOVE), path: "/inputSchema" }],
  [
    "a tool whose inputSchema is not an object schema",
    { check: byDefinition("Tool"), value: mutate(tool, "/inputSchema/type", "array"), path: "/inputSchema/type" },
  ],
  ["tools/list with tools not an array", { check: byDefinition("ListToolsResult"), value: mutate(listTools, "/tools", {}), path: "/tools" }],
  ["tools/list with a negative ttlMs", { check: byDefinition("ListToolsResult"), value: mutate(listTools, "/ttlMs", -1), path: "/ttlMs" }],
  ["tools/list with an unknown cacheScope", { check: byDefinition("ListToolsResult"), value: mutate(listTools, "/cacheScope", "shared"), path: "/cacheScope" }],
  [
    "prompts/get with a numeric argument",
    { check: byDefinition("GetPromptRequest"), value: mutate(getPrompt, "/params/arguments/code", 1), path: "/params/arguments/code" },
  ],
  ["resources/read without a uri", { check: byDefinition("ReadResourceRequest"), value: mutate(readResource, "/params/uri", REMOVE), path: "/params/uri" }],
  ["annotations with priority above 1", { check: byDefinition("Resource"), value: mutate(resource, "/annotations/priority", 2), path: "/annotations/priority" }],
  [
    "a log message with an unknown level",
    { check: byDefinition("LoggingMessageNotification"), value: mutate(logging, "/params/level", "verbose"), path: "/params/level" },
  ],
  [
    "a progress token that is an object",
    { check: byDefinition("ProgressNotification"), value: mutate(progress, "/params/progressToken", {}), path: "/params/progressToken" },
  ],
  [
    "sampling with fractional maxTokens",
    { check: byDefinition("CreateMessageRequest"), value: mutate(sampling, "/params/maxTokens", 1.5), path: "/params/maxTokens" },
  ],
  [
    "discovery without supportedVersions",
    { check: byDefinition("DiscoverResult"), value: mutate(discover, "/supportedVersions", REMOVE), path: "/supportedVersions" },
  ],
  ["an invalid-params error with another code", { check: byDefinition("InvalidParamsError"), value: mutate(invalidParams, "/code", -32601), path: "/code" }],
  [
    "text content with an unexpected audience",
    { check: byDefinition("TextContent"), value: mutate(text, "/annotations", { audience: ["robot"] }), path: "/annotations/audience/0" },
  ],
  ["completion/complete without a ref", { check: byDefinition("CompleteRequest"), value: mutate(completeRequest, "/params/ref", REMOVE), path: "/params/ref" }],
];

describe("hand-made invalid messages", () => {
  it("cover at least 30 cases", () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
  });

  describe.each(cases)("%s", (_label, { check, value, path }) => {
    it("is rejected with an issue naming the offending path", () => {
      const checked = check(value);
      expect(checked.ok).toBe(false);
      if (checked.ok) return;
      expect(checked.issues.map((issue) => issue.path)).toContain(path);
      expect(checked.message).toContain(path);
    });
  });
});
