/**
 * What every question a resolver returns has in common: the brand that tells
 * it from a plain value, the {@link Question} interface the evaluator reads,
 * and the small helpers the question kinds share. The kinds themselves live
 * beside it: form elicitation (`form-elicitation.ts`), URL elicitation
 * (`url-elicitation.ts`), sampling and roots (`client-queries.ts`), any
 * kind by its method (`ask.ts`).
 *
 * @module
 */
import type { Issue } from "./elicitation-schema.js";
import type { ClientCapabilities, InputRequest } from "./wire.js";

/**
 * Marks question objects. `Symbol.for` rather than a private symbol so two
 * copies of the package in one process (dual ESM/CJS installs) still
 * recognise each other's questions.
 * @internal
 */
export const QUESTION: unique symbol = Symbol.for("mcp-roundtrip.dependency-question") as never;

/** What reading a client's answer to a question gives: the typed value, or why it was refused. */
export type AnswerReading<V> = { ok: true; value: V; record: unknown } | { ok: false; issues: Issue[] };

/**
 * Something a dependency asks the client: built by {@link elicit},
 * {@link elicitUrl}, {@link sample}, {@link listRoots} or, for any kind,
 * {@link ask}, returned from a resolver. `V` is the
 * value the tool's handler receives once the client answered.
 */
export interface Question<V = unknown> {
  /** @internal Brands question objects, so a resolver's plain return value is never mistaken for one. */
  readonly [QUESTION]: true;
  /** Which kind of input request this is. */
  readonly kind: "elicit" | "elicitUrl" | "sample" | "roots" | "ask";
  /** The input request exactly as it goes into `inputRequests`. */
  readonly request: InputRequest;
  /** Digest of the rendered request (canonical JSON, SHA-256): what an answer is pinned to. */
  readonly digest: string;
  /** The client capabilities the request needs in the newest served revision, as `-32021` reports them (read from the generated kind table). */
  readonly requires: ClientCapabilities;
  /**
   * Validates a client's answer and turns it into the handler's value.
   * `record` is the normalised answer kept in the request state (the
   * client's answer as sent, so reading it again next round gives the same
   * value). Asynchronous only when a Standard Schema form's library
   * validates asynchronously. `protocolVersion` is the request's, for an
   * answer checked against a result type of the schema.
   * @internal
   */
  read(response: unknown, protocolVersion?: string): AnswerReading<V> | Promise<AnswerReading<V>>;
  /**
   * The request asked a second time after an answer that did not fit:
   * `reason` is added to its message where it has one.
   * @internal
   */
  reask?(reason: string): InputRequest;
  /** Type-level only: the value the handler receives. Never set. */
  readonly __value?: V;
}

/** The value a resolver's result gives the handler: a question's answer, or the plain value itself. */
export type ResolvedValue<R> = Awaited<R> extends Question<infer V> ? V : Awaited<R>;

/**
 * Tells a question from a plain value a resolver returned.
 * @internal
 */
export function isQuestion(value: unknown): value is Question {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[QUESTION] === true;
}

/**
 * A refused answer with one issue.
 * @internal
 */
export const refuse = (path: string, message: string): { ok: false; issues: Issue[] } => ({ ok: false, issues: [{ path, message }] });

/**
 * A question's message when it is asked again, telling the user why.
 * @internal
 */
export const reaskMessage = (message: string, reason: string): string => `${message} (Your previous answer was not accepted: ${reason})`;
