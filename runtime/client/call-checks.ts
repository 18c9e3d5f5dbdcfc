/**
 * What `Client`'s calls check on the way in and out: the target a call
 * names, and a tool's result against its `outputSchema` (the check itself
 * in `tool-output.ts`, loaded when a result needs it), with the check
 * errors the lazily loaded checks are handed (`check-errors.ts`).
 *
 * @internal
 * @module
 */
import type { JsonObject } from "./protocol.js";
import type { ClientSession } from "./session.js";
import type { ToolCallOptions } from "./options.js";
import type { ToolOutputState } from "./tool-output.js";
import { type CheckErrors, PendingServerMismatch, PendingStateRefused, ToolOutputInvalid } from "./check-errors.js";

/** The check errors handed to the lazily loaded checks (./check-errors.ts). @internal */
export const CHECK_ERRORS: CheckErrors = { ToolOutputInvalid, PendingServerMismatch, PendingStateRefused };

/**
 * A tool's complete result, checked against its `outputSchema` unless the
 * call or the client opted out (./tool-output.ts).
 * @throws ToolOutputInvalid when `structuredContent` does not fit the schema
 * @internal
 */
export async function checkedOutput(
  outputs: ToolOutputState,
  session: ClientSession,
  name: string,
  result: JsonObject,
  options: ToolCallOptions | undefined,
): Promise<JsonObject> {
  // Only structuredContent can lie about the schema; a result without it is judged only against a list already fetched.
  if (!(options?.checkOutput ?? outputs.enabled) || result.isError === true || (result.structuredContent === undefined && outputs.catalog === undefined)) {
    return result;
  }
  return (await import("./tool-output.js")).checkToolOutput(ToolOutputInvalid, outputs, session, name, result, options?.signal);
}

/**
 * Refuses a call whose name (or URI) is no non-empty string.
 * @throws TypeError naming the method and what it got
 * @internal
 */
export function checkTarget(what: string, value: unknown): void {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${what} needs a non-empty string ${what === "readResource" ? "URI" : "name"}, got ${JSON.stringify(value)}.`);
  }
}
