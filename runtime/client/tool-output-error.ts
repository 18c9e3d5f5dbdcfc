/**
 * The error of a tool result whose `structuredContent` does not fit the
 * tool's `outputSchema`. A module of its own: only the output checker
 * (./tool-output.ts, loaded on first use) builds it.
 *
 * @module
 */
import type { ValidationIssue } from "../validate/issues.js";
import type { JsonObject } from "./protocol.js";

/**
 * `callTool` got a result whose `structuredContent` does not fit the
 * `outputSchema` the tool declares in `tools/list` (or that has none though
 * the tool declares one). The result is kept on the error; turn the check
 * off with `checkToolOutputs: false` at `Client.connect`, or
 * `{ checkOutput: false }` on one call.
 *
 * @example
 * ```ts
 * import { Client, ToolOutputInvalid } from "mcp-roundtrip/client";
 *
 * const client = await Client.connect("http://127.0.0.1:3000/mcp");
 * try {
 *   await client.callTool("weather", { city: "Lisbon" });
 * } catch (error) {
 *   if (error instanceof ToolOutputInvalid) console.error(error.tool, error.issues); // "weather", [{ path: "/temperature", message: "…" }]
 * }
 * ```
 */
export class ToolOutputInvalid extends Error {
  /** Always `"ToolOutputInvalid"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "ToolOutputInvalid" as const;
  /** The tool whose result was rejected. */
  readonly tool: string;
  /** What does not fit: each a JSON Pointer into `structuredContent` (`/temperature`; `""` for the whole) and what is wrong there. */
  readonly issues: readonly Readonly<ValidationIssue>[];
  /** The `CallToolResult` as the server sent it. */
  readonly result: JsonObject;

  /** @internal Built by the client's output check. */
  constructor(tool: string, issues: readonly ValidationIssue[], result: JsonObject) {
    const problems = issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
    super(
      `Tool "${tool}" returned structuredContent that does not fit its outputSchema: ${problems}. ` +
        `The server is at fault; the result is on error.result. Pass { checkOutput: false } to accept it anyway.`,
    );
    this.tool = tool;
    this.issues = issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message }));
    this.result = result;
  }
}
