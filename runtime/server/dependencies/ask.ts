/**
 * `ask`: a question of any input-request kind a served revision's schema
 * defines, by its method, for kinds without a helper of their own (and for
 * those with one, when the raw result is what the handler wants). The kind's
 * capability, its request's shape and its answer's type all come from the
 * generated tables, so a kind a new revision adds is asked with no edit here.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import type { ServedInputKind, ServedInputKinds } from "../../protocol/input-kinds.js";
import { spokenInputKinds } from "../../protocol/input-kinds.js";
import { checkDefinition } from "../../validate/core.js";
import { describeIssues } from "../../validate/issues.js";
import { capabilitiesNeededBy } from "../capabilities.js";
import type { Frozen } from "../input-required.js";
import { newestServedKind, readAnswer } from "./answers.js";
import { questionDigest } from "./digest.js";
import { QUESTION, reaskMessage, type Question } from "./questions.js";
import type { InputRequest } from "./wire.js";

/**
 * The params {@link ask} takes for the kind `M`: the kind's params as its
 * schema defines them (a union over the served revisions that define it),
 * read-only structures accepted, so an `as const` form or list fits.
 */
export type AskParams<M extends ServedInputKind> = Frozen<ServedInputKinds[M]["params"]>;

/** The answer the handler receives for a kind: the client's result as the kind's schema types it. */
export type AskAnswer<M extends ServedInputKind> = ServedInputKinds[M]["result"];

/** `ask`'s arguments after the method: the params, optional when the kind's params are (as `roots/list`'s). */
type AskArguments<M extends ServedInputKind> = Record<string, never> extends ServedInputKinds[M]["params"] ? [params?: AskParams<M>] : [params: AskParams<M>];

/** A question of any kind; the handler receives the client's result, typed by the kind. */
export interface AskQuestion<M extends ServedInputKind = ServedInputKind> extends Question<AskAnswer<M>> {
  readonly kind: "ask";
  /** The input request's method. */
  readonly method: M;
}

/**
 * Declares a question of any input-request kind the schema of a served
 * revision defines: the client is sent `{ method, params }`, and the handler
 * receives its result, checked against the kind's result type in the
 * request's revision. Like every question: asked in the first round that
 * can, answers pinned to the rendered request, a misfit answer asked for once
 * more (the reason added to `params.message` when the kind has one), a
 * client that declared no capability for the kind (or a revision without
 * it) answered `-32021`, and a 2025 session asked over its back-channel.
 *
 * @param method - the kind's method, e.g. `"elicitation/create"`.
 * @param params - the kind's params (optional when the kind takes none).
 * @throws TypeError when `method` is no input-request kind of any revision this package was generated for,
 *   or `params` does not fit the kind's schema (the message names each path).
 * @example
 * ```ts
 * needs: (need) =>
 *   need.add("ok", (args) => ask("elicitation/create", { message: `Delete ${args.name}?`, requestedSchema: { type: "object", properties: {} } }))
 * // handler receives the ElicitResult: { action, content? }
 * ```
 */
export function ask<M extends ServedInputKind>(method: M, ...params: AskArguments<M>): AskQuestion<M>;
export function ask(method: string, params?: unknown): AskQuestion {
  const served = typeof method === "string" ? newestServedKind(method) : undefined;
  if (served === undefined) {
    throw new TypeError(
      `ask(): ${JSON.stringify(method)} is not an input-request kind of a revision this server serves ` +
        `(known: ${spokenInputKinds().join(", ")}); a kind a newer revision adds is served once that revision is generated (npm run codegen -- --add-revision)`,
    );
  }
  if (params !== undefined && !isObject(params)) throw new TypeError(`ask(${JSON.stringify(method)}): params must be an object, got ${typeof params}`);
  const request = (params === undefined ? { method } : { method, params: { ...params } }) as InputRequest;
  // Checked now, where the author wrote it, rather than refused by the result check as a server bug each call.
  const shape = checkDefinition(served.tables, served.kind.request, request);
  if (!shape.ok) throw new TypeError(`ask(${JSON.stringify(method)}): the request does not fit its schema: ${describeIssues(shape.issues)}`);
  const message = isObject(params) && typeof params.message === "string" ? params.message : undefined;
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "ask" as const,
    method,
    request,
    digest: questionDigest(request),
    requires: capabilitiesNeededBy(request),
    read: (response: unknown, protocolVersion?: string) => readAnswer(method, response, protocolVersion),
    ...(message === undefined
      ? {}
      : { reask: (reason: string) => ({ ...request, params: { ...request.params, message: reaskMessage(message, reason) } }) as InputRequest }),
  }) as AskQuestion;
}
