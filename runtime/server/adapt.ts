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
import { hookOf, type AdaptedRequest, type AdapterExchange, type RevisionAdapter, type WireObject } from "../protocol/adapter.js";
import { isObject } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import { checkResult } from "../validate/core.js";
import { tablesOfRevision } from "../validate/revisions.js";
import { internalError } from "./errors.js";

const fileOf = (revision: string) => `runtime/adapters/${revision}.ts`;

/**
 * How McpServer tells its `Server` a tool's listing entry by name, for the exchange of an adapted
 * `tools/call` (`AdapterExchange.tool`), without a public option.
 * @internal
 */
export const LISTED_TOOL: unique symbol = Symbol("mcp-roundtrip/listed-tool");

/** What {@link LISTED_TOOL} carries: the tool as `tools/list` shows it, or `undefined` for a name it does not list. @internal */
export type ListedTool = (name: string) => Readonly<WireObject> | undefined;

/** Runs one hook; a throw or a non-object answer is a server bug, said as such (a `requests` hook's `invalidParams` excepted). */
function run(revision: string, what: string, hook: () => unknown, refusable = false): WireObject {
  let mapped: unknown;
  try {
    mapped = hook();
  } catch (error) {
    if (refusable && error instanceof McpError && error.code === JsonRpcErrorCode.InvalidParams) throw error;
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
 * @param tool - for `tools/call`, the called tool's listing entry (`AdapterExchange.tool`)
 * @throws McpError -32602 when the hook refuses the request (`invalidParams`), -32603 when it throws
 *   anything else or answers something that is not an object
 * @internal
 */
export function paramsToModel(adapter: RevisionAdapter, revision: string, method: string, params: WireObject, tool?: Readonly<WireObject>): WireObject {
  const hook = hookOf(adapter.requests, method);
  if (hook === undefined) return params;
  return run(revision, `the ${method} params`, () => hook(params, { revision, method, params, wireParams: params, tool }), true);
}

/**
 * An adapted request: its params in the model's shape, and the exchange every later hook of it
 * gets. Only a request whose revision has an adapter comes here; the called tool of a `tools/call`
 * is looked up (through `listedTool`) only then.
 * @throws McpError as {@link paramsToModel}
 * @internal
 */
export function adaptRequest(adapter: RevisionAdapter, revision: string, method: string, wire: WireObject, listedTool: ListedTool | undefined): AdaptedRequest {
  const tool = method === "tools/call" && listedTool !== undefined && typeof wire.name === "string" ? listedTool(wire.name) : undefined;
  const params = paramsToModel(adapter, revision, method, wire, tool);
  const exchange: AdapterExchange = { revision, method, params, wireParams: wire, tool };
  return { adapter, exchange };
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
