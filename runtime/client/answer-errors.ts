/**
 * The error of a callback answer that does not fit its request. A module of
 * its own: only the answer checker (loaded on first use) builds it, so a
 * bundle that never imports it by name keeps it out of the main chunk.
 */
import type { ValidationIssue } from "../validate/issues.js";
/**
 * A callback's answer does not fit the input request it answers: an
 * `onElicit` answer against the request's form (`requestedSchema`), an
 * `onSample` or `onListRoots` answer against its result type. The client
 * sends nothing: the call rejects with this error, naming the input key and
 * each problem, instead of letting the server ask again.
 *
 * @example
 * ```ts
 * import { Client, InputResponseInvalid } from "mcp-roundtrip/client";
 *
 * const client = await Client.connect("http://127.0.0.1:3000/mcp", { onElicit: async () => ({ action: "accept", content: { name: 42 } }) });
 * try {
 *   await client.callTool("greet", {});
 * } catch (error) {
 *   if (error instanceof InputResponseInvalid) console.error(error.key, error.issues); // "confirm", [{ path: "/content/name", message: "must be a string" }]
 * }
 * ```
 */
export class InputResponseInvalid extends Error {
  /** Always `"InputResponseInvalid"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "InputResponseInvalid" as const;
  /** The server-assigned key of the request answered; `undefined` over a 2025 server's back channel, which has no keys. */
  readonly key: string | undefined;
  /** The input request's method (`elicitation/create`, …). */
  readonly method: string;
  /** What does not fit, each a JSON Pointer into the answer (`/content/name`) and what is wrong there. */
  readonly issues: readonly Readonly<ValidationIssue>[];
  /**
   * 2025 servers only: the result the server ended the call with after the
   * client refused its question (a tool's `isError` result, say);
   * `undefined` when it ended the call with a JSON-RPC error.
   */
  serverResult: Record<string, unknown> | undefined;

  constructor(key: string | undefined, method: string, option: string, issues: readonly ValidationIssue[]) {
    const problems = issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
    // Over a 2025 back channel (no key) the server waits on an answer, so it is told with an error response instead.
    const sent = key === undefined ? "The server was answered with an error instead" : "Nothing was sent";
    super(`${option} answer${key === undefined ? "" : ` for "${key}"`}: ${problems}. ${sent}; make the callback's answer fit the request.`);
    this.key = key;
    this.method = method;
    this.issues = issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message }));
  }
}
