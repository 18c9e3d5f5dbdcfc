/**
 * Applies a revision's adapter (runtime/protocol/adapter.ts) on the
 * server's request path, for a request whose protocol version has one:
 * its params wire → model once they passed the wire schema, its result
 * model → wire once the model's schema accepted it, then the wire schema
 * again. A request of a revision without an adapter never reaches this
 * module (`RequestMeta.adapter` is `undefined`).
 *
 * @internal
 * @module
 */
import { hookOf, type AdaptedRequest, type RevisionAdapter, type WireObject } from "../protocol/adapter.js";
import { isObject } from "../protocol/guards.js";
import { checkResult } from "../validate/core.js";
import { tablesOfRevision } from "../validate/revisions.js";
import { internalError } from "./errors.js";

const fileOf = (revision: string) => `runtime/adapters/${revision}.ts`;

/** Runs one hook; a throw or a non-object answer is a server bug, said as such. */
function run(revision: string, what: string, hook: () => unknown): WireObject {
  let mapped: unknown;
  try {
    mapped = hook();
  } catch (error) {
    throw internalError(`Internal error: the ${revision} adapter (${fileOf(revision)}) threw while mapping ${what}`, error);
  }
  if (!isObject(mapped))
    throw internalError(
      `Internal error: the ${revision} adapter (${fileOf(revision)}) mapped ${what} to ${mapped === null ? "null" : typeof mapped}, not an object`,
    );
  return mapped;
}

/**
 * An incoming request's params in the model's shape.
 * @throws McpError -32603 when the adapter's hook throws or answers something that is not an object
 * @internal
 */
export function paramsToModel(adapter: RevisionAdapter, revision: string, method: string, params: WireObject): WireObject {
  const hook = hookOf(adapter.requests, method);
  if (hook === undefined) return params;
  return run(revision, `the ${method} params`, () => hook(params, { revision, method, params }));
}

/**
 * An outgoing result in the wire's shape; with `validate`, checked against
 * the wire revision's schema of the method (a method outside the schema,
 * served by `setRequestHandler`, has its own check before).
 * @throws McpError -32603 when the hook fails, or the wire schema rejects what it produced
 * @internal
 */
export function resultToWire(adapted: AdaptedRequest, result: WireObject, validate: boolean): WireObject {
  const { adapter, exchange } = adapted;
  const hook = hookOf(adapter.results, exchange.method);
  const mapped = hook === undefined ? result : run(exchange.revision, `the ${exchange.method} result`, () => hook(result, exchange));
  const tables = validate ? tablesOfRevision(exchange.revision) : undefined;
  if (tables !== undefined && Object.hasOwn(tables.methodValidators, exchange.method)) {
    const outcome = checkResult(tables, exchange.method, mapped);
    if (!outcome.ok) {
      throw internalError(
        `Internal error: the ${exchange.method} result, mapped by the ${exchange.revision} adapter (${fileOf(exchange.revision)}), ` +
          `does not match ${exchange.revision}'s schema: ${outcome.message}. Map every breaking change --add-revision listed for it`,
      );
    }
  }
  return mapped;
}

/**
 * The revision whose schema checks what a handler returned: the model's when
 * the request is adapted (the handler speaks the model), else the request's own.
 * @internal
 */
export function handlerRevisionOf(ctx: { readonly protocolVersion: string; readonly adapted: AdaptedRequest | undefined }): string {
  return ctx.adapted === undefined ? ctx.protocolVersion : ctx.adapted.adapter.model;
}
