/**
 * The questions that ask the client itself rather than the user: a sampling
 * request (the client's LLM) and a roots request (the client's roots), both
 * deprecated by the protocol as of 2026-07-28 but still served.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import { capabilitiesNeededBy } from "../capabilities.js";
import { readAnswer } from "./answers.js";
import { questionDigest } from "./digest.js";
import { QUESTION, type AnswerReading, type Question } from "./questions.js";
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, Root } from "./wire.js";

/** The parameters of `sampling/createMessage` (`messages` and `maxTokens` at least). */
export type SampleParams = CreateMessageRequestParams;

/** A sampling request; the handler receives the client's `CreateMessageResult`. */
export interface SampleQuestion extends Question<CreateMessageResult> {
  readonly kind: "sample";
  /** Reads the client's answer, checked in the request's revision (asynchronous only while a 2025 session's schema loads). @internal */
  read(response: unknown, protocolVersion?: string): AnswerReading<CreateMessageResult> | Promise<AnswerReading<CreateMessageResult>>;
}

/** A roots request; the handler receives the client's roots. */
export interface ListRootsQuestion extends Question<Root[]> {
  readonly kind: "roots";
  /** Reads the client's answer, checked in the request's revision (asynchronous only while a 2025 session's schema loads). @internal */
  read(response: unknown, protocolVersion?: string): AnswerReading<Root[]> | Promise<AnswerReading<Root[]>>;
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
  const request = { method: "sampling/createMessage" as const, params: { ...params } };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "sample" as const,
    request,
    digest: questionDigest(request),
    requires: capabilitiesNeededBy(request),
    read: (response: unknown, protocolVersion?: string) => readAnswer(request.method, response, protocolVersion) as AnswerReading<CreateMessageResult>,
  });
}

const ROOTS = { method: "roots/list" as const };
let rootsDigest: string | undefined;
let rootsRequires: ClientCapabilities | undefined;

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
  const rootsOf = (reading: AnswerReading<Record<string, unknown>>): AnswerReading<Root[]> => {
    if (!reading.ok) return reading;
    const roots = (reading.value.roots as Root[]).map((root) => ({ ...root }));
    return { ok: true, value: roots, record: { roots } };
  };
  const read = (response: unknown, protocolVersion?: string): AnswerReading<Root[]> | Promise<AnswerReading<Root[]>> => {
    const reading = readAnswer(ROOTS.method, response, protocolVersion);
    return reading instanceof Promise ? reading.then(rootsOf) : rootsOf(reading);
  };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "roots" as const,
    request: ROOTS,
    digest: (rootsDigest ??= questionDigest(ROOTS)),
    requires: (rootsRequires ??= capabilitiesNeededBy(ROOTS)),
    read,
  });
}
