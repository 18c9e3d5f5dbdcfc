/**
 * The questions that ask the client itself rather than the user: a sampling
 * request (the client's LLM) and a roots request (the client's roots), both
 * deprecated by the protocol as of 2026-07-28 but still served.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import { checkDefinition } from "../../validate/core.js";
import { tablesFor } from "../../validate/revisions.js";
import { questionDigest } from "./digest.js";
import { QUESTION, refuse, type AnswerReading, type Question } from "./questions.js";
import type { CreateMessageRequestParams, CreateMessageResult, Root } from "./wire.js";

/** The parameters of `sampling/createMessage` (`messages` and `maxTokens` at least). */
export type SampleParams = CreateMessageRequestParams;

/** A sampling request; the handler receives the client's `CreateMessageResult`. */
export interface SampleQuestion extends Question<CreateMessageResult> {
  readonly kind: "sample";
  /** Reads the client's answer, checked in the request's revision; never asynchronous for this kind. @internal */
  read(response: unknown, protocolVersion?: string): AnswerReading<CreateMessageResult>;
}

/** A roots request; the handler receives the client's roots. */
export interface ListRootsQuestion extends Question<Root[]> {
  readonly kind: "roots";
  /** Reads the client's answer, checked in the request's revision; never asynchronous for this kind. @internal */
  read(response: unknown, protocolVersion?: string): AnswerReading<Root[]>;
}

/**
 * Declares a sampling request: the client runs its LLM over `messages` and
 * the handler receives the `CreateMessageResult`.
 *
 * @param params - the `sampling/createMessage` parameters (`messages` and `maxTokens` at least).
 * @throws TypeError when `messages` is empty or `maxTokens` is not a positive integer.
 * @example
 * ```ts
 * sample({ messages: [{ role: "user", content: { type: "text", text: "Name this database" } }], maxTokens: 50 });
 * ```
 * @deprecated The protocol deprecates Sampling as of 2026-07-28 (SEP-2577), to be removed no earlier than a
 *   year later: it keeps working, but a server that needs a model should call an LLM provider itself.
 */
export function sample(params: SampleParams): SampleQuestion {
  if (!isObject(params)) throw new TypeError("sample() expects the sampling/createMessage parameters { messages, maxTokens, ... }");
  if (!Array.isArray(params.messages) || params.messages.length === 0) {
    throw new TypeError('sample(): "messages" must be a non-empty array of { role, content }');
  }
  params.messages.forEach((message, index) => {
    if (!isObject(message) || (message.role !== "user" && message.role !== "assistant") || message.content === undefined) {
      throw new TypeError(`sample(): messages[${index}] must be { role: "user" | "assistant", content }`);
    }
  });
  if (!Number.isInteger(params.maxTokens) || params.maxTokens <= 0) {
    throw new RangeError(`sample(): "maxTokens" must be a positive integer, got ${String(params.maxTokens)}`);
  }
  const sampling: Record<string, object> = {};
  if (params.tools !== undefined || params.toolChoice !== undefined) sampling.tools = {};
  if (params.includeContext === "thisServer" || params.includeContext === "allServers") sampling.context = {};
  const read = (response: unknown, protocolVersion?: string): AnswerReading<CreateMessageResult> => {
    if (!isObject(response)) return refuse("", "a sampling answer must be a CreateMessageResult object");
    // The wire may add resultType to any result; the handler's value is the CreateMessageResult alone.
    const { resultType: _resultType, ...result } = response;
    const checked = checkDefinition(tablesFor(protocolVersion), "CreateMessageResult", result);
    if (!checked.ok) return { ok: false, issues: checked.issues };
    return { ok: true, value: result as unknown as CreateMessageResult, record: result };
  };
  const request = { method: "sampling/createMessage" as const, params: { ...params } };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "sample" as const,
    request,
    digest: questionDigest(request),
    requires: { sampling },
    read,
  });
}

let rootsDigest: string | undefined;

/**
 * Declares a roots request: the handler receives the client's roots.
 *
 * @example
 * ```ts
 * needs: (need) => need.add("roots", () => listRoots())
 * ```
 * @deprecated The protocol deprecates Roots as of 2026-07-28 (SEP-2577), to be removed no earlier than a year
 *   later: it keeps working, but pass directories and files as tool arguments, resource URIs or
 *   server configuration instead.
 */
export function listRoots(): ListRootsQuestion {
  const read = (response: unknown, protocolVersion?: string): AnswerReading<Root[]> => {
    if (!isObject(response)) return refuse("", "a roots answer must be a ListRootsResult object");
    const checked = checkDefinition(tablesFor(protocolVersion), "ListRootsResult", response);
    if (!checked.ok) return { ok: false, issues: checked.issues };
    const roots = (response.roots as Root[]).map((root) => ({ ...root }));
    return { ok: true, value: roots, record: { roots } };
  };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "roots" as const,
    request: { method: "roots/list" as const },
    digest: (rootsDigest ??= questionDigest({ method: "roots/list" })),
    requires: { roots: {} },
    read,
  });
}
