/**
 * The errors of the client's checks that load on first use: a tool result
 * that does not fit its `outputSchema` (./tool-output.ts), a parked call
 * that cannot go on (./resume.ts). One module, so a bundle that imports
 * none of them by name keeps them out of its entry chunk, in one chunk. Their
 * messages are written where they are thrown (./check-messages.ts), so a
 * bundle that exports the classes carries no message text up front (and
 * their fields are `declare`d: the constructors set them, so no field
 * initialiser is emitted).
 *
 * @module
 */
import type { ValidationIssue } from "../validate/issues.js";
import type { InputRequest, InputResponse, JsonObject } from "./protocol.js";
import type { PendingRequest } from "./pending.js";
import type { PendingServer } from "./pending-server.js";

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
  declare readonly tool: string;
  /** What does not fit: each a JSON Pointer into `structuredContent` (`/temperature`; `""` for the whole) and what is wrong there. */
  declare readonly issues: readonly Readonly<ValidationIssue>[];
  /** The `CallToolResult` as the server sent it. */
  declare readonly result: JsonObject;

  /** @internal Built by the client's output check (./tool-output.ts), which writes the message (./check-messages.ts). */
  constructor(message: string, tool: string, issues: readonly ValidationIssue[], result: JsonObject) {
    super(message);
    this.tool = tool;
    this.issues = issues.map((issue) => Object.freeze({ path: issue.path, message: issue.message }));
    this.result = result;
  }
}

/**
 * A parked call belongs to another server than the one this client is
 * connected to (another URL or command, another server name), or was made in
 * a protocol revision the server no longer speaks. Nothing was sent and
 * nobody was asked anything.
 */
export class PendingServerMismatch extends Error {
  /** Always `"PendingServerMismatch"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "PendingServerMismatch" as const;
  /** What differs: the endpoint, the server's name, or the revision (no longer spoken). */
  declare readonly reason: "endpoint" | "name" | "revision";
  /** The server the call was parked with. */
  declare readonly parked: Readonly<PendingServer>;
  /** The server this client is connected to. */
  declare readonly current: Readonly<PendingServer>;

  /** @internal Built by `client.resume` (./resume.ts), which writes the message (./check-messages.ts). */
  constructor(message: string, reason: "endpoint" | "name" | "revision", parked: PendingServer, current: PendingServer) {
    super(message);
    this.reason = reason;
    this.parked = parked;
    this.current = current;
  }
}

/** A question a parked call asked and the answer given to it, kept so a fresh call can reuse it. */
export interface KeptAnswer {
  /** The input request as the server asked it. */
  readonly request: InputRequest;
  /** What the callback answered. */
  readonly response: InputResponse;
}

/**
 * The server no longer accepts a parked call's `requestState` (`-32602`,
 * `invalid_request_state`): it restarted with other keys, or the state
 * expired. Found before anyone is asked when the client can (the parked
 * round is sent once without answers first); `answers` holds what was
 * answered when the refusal came later, so a fresh call can reuse it.
 */
export class PendingStateRefused extends Error {
  /** Always `"PendingStateRefused"`: test it rather than `instanceof` when two copies of the package may be loaded. */
  override readonly name = "PendingStateRefused" as const;
  /** The call that could not go on: start it afresh with its method, `target` and `arguments`. */
  declare readonly pending: PendingRequest;
  /** The answers given before the refusal, by input key; empty when nobody was asked. */
  declare readonly answers: Readonly<Record<string, KeptAnswer>>;

  /** @internal Built by `client.resume` (./resume.ts), which writes the message (./check-messages.ts). */
  constructor(message: string, pending: PendingRequest, answers: Record<string, KeptAnswer>, options: { cause: unknown }) {
    super(message, options);
    this.pending = pending;
    this.answers = answers;
  }
}

/** The check errors as the lazily loaded checks get them from the client (a kit: see ./tool-output.ts, ./resume.ts). @internal */
export interface CheckErrors {
  readonly ToolOutputInvalid: typeof ToolOutputInvalid;
  readonly PendingServerMismatch: typeof PendingServerMismatch;
  readonly PendingStateRefused: typeof PendingStateRefused;
}
