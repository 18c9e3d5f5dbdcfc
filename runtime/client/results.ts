import { InvalidServerResult } from "./errors.js";
import type { JsonObject } from "./protocol.js";
import type { ProtocolEra } from "./connection.js";
import { isObject } from "../protocol/guards.js";

const INPUT_REQUIRED_METHODS: ReadonlySet<string> = new Set(["tools/call", "prompts/get", "resources/read"]);

/** True for the three methods a server may answer with `input_required`. */
function mayRequireInput(method: string): boolean {
  return INPUT_REQUIRED_METHODS.has(method);
}

/**
 * Sorts a result into complete or input-required, rejecting what the client
 * must not accept (2026-07-28 basic/index "ResultType"; basic/patterns/mrtr):
 * no `resultType` means complete (earlier revisions never send one) and is
 * stamped `"complete"` on the result; any
 * value other than `complete` / `input_required` is invalid; `input_required`
 * only on the three MRTR methods, only from a modern server, and only with
 * `inputRequests` and/or `requestState` of the right shapes.
 *
 * @returns `true` when the result asks for input.
 * @throws InvalidServerResult for anything else.
 */
export function classifyResult(method: string, era: ProtocolEra, result: JsonObject, custom = false): boolean {
  const resultType = result.resultType;
  if (resultType === "complete") return false;
  if (resultType === undefined) {
    // Stamped so the value matches its type (`resultType: "complete"`) for callers that switch on it.
    result.resultType = "complete";
    return false;
  }
  // The tasks extension's handle: the caller (callTool, or a hand-driven session) decides what to do with it.
  if (resultType === "task" && method === "tools/call" && era === "modern") {
    if (typeof result.taskId !== "string" || result.taskId === "") throw new InvalidServerResult(method, `a task result carries no taskId.`, result);
    return false;
  }
  if (resultType !== "input_required") {
    throw new InvalidServerResult(
      method,
      `unknown resultType ${JSON.stringify(resultType)}; this client understands "complete" and "input_required". ` +
        `The server may be using an extension the client did not negotiate.`,
      result,
    );
  }
  // A custom method may ask as a tool may (the server's setRequestHandler serves it with MRTR).
  if (!custom && !mayRequireInput(method)) {
    throw new InvalidServerResult(method, `the server answered input_required, which only tools/call, prompts/get and resources/read may do.`, result);
  }
  if (era === "legacy") {
    throw new InvalidServerResult(method, `the server answered input_required on a pre-2026 session; input_required exists only in protocol 2026-07-28.`, result);
  }
  checkInputRequired(method, result);
  return true;
}

function checkInputRequired(method: string, result: JsonObject): void {
  const { inputRequests, requestState } = result;
  if (requestState !== undefined && typeof requestState !== "string") {
    throw new InvalidServerResult(method, `input_required carries a requestState that is not a string.`, result);
  }
  if (inputRequests !== undefined) {
    if (!isObject(inputRequests)) {
      throw new InvalidServerResult(method, `input_required carries inputRequests that is not an object.`, result);
    }
    for (const key in inputRequests) {
      const request = inputRequests[key];
      if (!isObject(request) || typeof request.method !== "string") {
        throw new InvalidServerResult(method, `inputRequests["${key}"] is not a request object with a method.`, result);
      }
    }
  }
  // An empty map asks for nothing: without state there is nothing to answer or echo, and retrying would only poll.
  if (!hasEntries(inputRequests as object | undefined) && requestState === undefined) {
    throw new InvalidServerResult(method, `input_required carries neither inputRequests nor requestState, so there is nothing to answer or echo.`, result);
  }
}

/** True when `requests` has at least one entry. Avoids allocating a key array on the hot path. */
export function hasEntries(requests: object | undefined): boolean {
  if (requests === undefined) return false;
  for (const _ in requests) return true;
  return false;
}
