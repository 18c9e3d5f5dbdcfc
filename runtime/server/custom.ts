/**
 * Methods outside the protocol schema (an extension's, an experimental
 * one) served through the same request path as the built-in ones: each
 * becomes a route of its own, with its handler, its params check and its
 * result check, so it gets the envelope checks, middleware (sealing,
 * telemetry), MRTR and errors of every other request.
 *
 * @internal
 * @module
 */
import { resolveSchemaCompiler } from "#schema-compiler";
import { isObject, isThenable } from "../protocol/guards.js";
import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { RequestContext } from "../protocol/context.js";
import { paramsWithoutEnvelope } from "../protocol/message.js";
import { MODERN_VERSIONS } from "../protocol/revisions.js";
import { tablesOfRevision } from "../validate/revisions.js";
import { internalError } from "./errors.js";
import type { AnyHandler } from "./request.js";
import { route, ROUTES, type BuiltInMethod, type Route } from "./routes.js";
import type { SchemaCheck, SchemaCompilerChoice } from "./schema/schema-check.js";
import { isStandardSchema, standardValidatorOf, type StandardSchema } from "./schema/standard.js";
import type { ServerRequestContext } from "./context.js";
import type { InputRequiredResult } from "../protocol/types.js";
import type { MaybePromise } from "./types.js";
import { schemaMethodFacts, type SchemaMethod, type SchemaMethodOptions, type SchemaRequestHandler } from "./schema-methods.js";

/** A JSON Schema object, or a Standard Schema (zod, valibot, arktype, …). */
export type MethodSchema = Record<string, unknown> | StandardSchema;

/** How a custom request method is checked, for {@link Server.setRequestHandler}. */
export interface CustomRequestOptions {
  /**
   * The params the method takes, checked before the handler runs (a misfit
   * is `-32602` naming the path). The envelope's own members (`_meta`,
   * `inputResponses`, `requestState`) are not part of what it checks.
   */
  params?: MethodSchema;
  /** The result the handler must return; a misfit is `-32603` (a server bug), like a built-in result. */
  result?: MethodSchema;
  /**
   * Whether the handler may answer with an `InputRequiredResult` (MRTR): the
   * method's `requestState` is then sealed and verified like a tool's
   * (bound to the method and its params). Default `true`.
   */
  inputRequired?: boolean;
  /**
   * Replace a method the protocol schema (or the server itself) defines.
   * Without it, registering such a method throws, so a typo cannot shadow
   * `tools/call` unnoticed.
   */
  override?: boolean;
  /**
   * The protocol revisions the method is served to (e.g. `["2026-07-28"]`),
   * each one this server serves; a peer speaking another gets `-32601`.
   * Every served revision when absent.
   */
  revisions?: readonly string[];
}

/**
 * A custom request handler: gets the params (checked, without the envelope's
 * members; a Standard Schema's output when one checked them) and the same
 * context as every handler; returns the result, or an `InputRequiredResult`
 * to ask the client for input first (MRTR, as a tool may).
 */
export type CustomRequestHandler = (params: Record<string, unknown>, ctx: ServerRequestContext) => MaybePromise<Record<string, unknown> | InputRequiredResult>;

/**
 * `setRequestHandler`'s arguments after the method: for a built-in method,
 * `{ override: true }` and a typed handler; for another schema method, a
 * typed handler (options optional); for a method in no schema, its
 * `{ params, result }` schemas and a handler of plain records.
 */
export type RequestHandlerArguments<M extends string> = M extends BuiltInMethod
  ? [
      options: SchemaMethodOptions & {
        /** Required for a built-in method, so a typo or a copy never replaces `tools/call` unnoticed. */
        override: true;
      },
      handler: SchemaRequestHandler<M>,
    ]
  : M extends SchemaMethod
    ? [handler: SchemaRequestHandler<M>] | [options: SchemaMethodOptions, handler: SchemaRequestHandler<M>]
    : [options: CustomRequestOptions, handler: CustomRequestHandler];

/** A custom notification handler: the params (checked when a schema was given) and what the transport knows of the sender. */
export type CustomNotificationHandler = (params: Record<string, unknown>, context: RequestContext | undefined) => void | Promise<void>;

/** A custom notification as the server keeps it. @internal */
export interface CustomNotification {
  readonly check: ((params: Record<string, unknown>) => Promise<Record<string, unknown>>) | undefined;
  readonly handler: CustomNotificationHandler;
}

/** Params without `_meta`: what a notification, or a method that never asks, gets. */
function withoutMeta(params: Record<string, unknown>): Record<string, unknown> {
  if (!("_meta" in params)) return params;
  const { _meta, ...own } = params;
  return own;
}

/** A check of a value against a schema; resolves to the value the handler gets (a Standard Schema's output). */
type Check = (value: unknown) => Promise<SchemaCheck & { value?: unknown }>;

function checkerOf(schema: MethodSchema, label: string, compile: ReturnType<typeof resolveSchemaCompiler>): Check {
  if (isStandardSchema(schema)) {
    const validate = standardValidatorOf(schema);
    return async (value) => {
      const checked = await validate(value);
      return checked.ok ? { ok: true, value: checked.value } : checked;
    };
  }
  if (!isObject(schema)) throw new TypeError(`${label}: a schema must be a JSON Schema object or a Standard Schema (zod, valibot, arktype…)`);
  const validate = compile(schema, label);
  return async (value) => {
    const loading = validate.loading?.();
    if (loading !== undefined) await loading;
    return validate(value);
  };
}

function assertMethodName(method: unknown, what: string): asserts method is string {
  if (typeof method !== "string" || method.length === 0 || method !== method.trim()) {
    throw new TypeError(`${what}: the method must be a non-empty string without surrounding spaces, such as "widgets/list"; got ${JSON.stringify(method)}`);
  }
}

/**
 * True when registering `method` would shadow something: a route of the
 * server's own, a served revision's notification, or a request of the
 * schema a client does not send (an input request such as an elicitation).
 * A client request a schema defines and the server has no route for is
 * registered without `override`: that is what typed schema methods are.
 */
function definedByProtocol(method: string): boolean {
  if (ROUTES.has(method) || method === "initialize") return true;
  for (const revision of MODERN_VERSIONS) {
    const tables = tablesOfRevision(revision);
    if (tables === undefined) continue;
    if (Object.hasOwn(tables.notificationTable, method)) return true;
    if (Object.hasOwn(tables.methodTable, method) && schemaMethodFacts(method) === undefined) return true;
  }
  return false;
}

/** The custom methods of one server. @internal */
export class CustomMethods {
  /** Request routes by method, read by both revision profiles. */
  readonly requests = new Map<string, Route>();
  readonly notifications = new Map<string, CustomNotification>();
  private readonly compile: ReturnType<typeof resolveSchemaCompiler>;

  /** Every version the server answers: what a custom method's `revisions` may name. */
  private readonly served: readonly string[];

  constructor(choice: SchemaCompilerChoice | undefined, served: readonly string[]) {
    this.compile = resolveSchemaCompiler(choice);
    this.served = served;
  }

  /** Adds (or, with `override`, replaces) a request route. @throws TypeError on misuse, naming the fix */
  addRequest(method: string, options: CustomRequestOptions, handler: CustomRequestHandler): void {
    const what = `setRequestHandler(${JSON.stringify(method)})`;
    assertMethodName(method, "setRequestHandler");
    if (!isObject(options)) throw new TypeError(`${what}: options must be an object, e.g. { params: { type: "object" } }`);
    if (typeof handler !== "function") throw new TypeError(`${what}: the handler must be a function (params, ctx) => result`);
    if (options.override !== true && (definedByProtocol(method) || method.startsWith("notifications/"))) {
      throw new TypeError(
        `${what}: ${method} is defined by the protocol (or is a notification); registering it would shadow the built-in. ` +
          "Pass { override: true } if replacing it is what you mean.",
      );
    }
    if (options.override !== true && this.requests.has(method))
      throw new TypeError(`${what}: a handler is already registered (pass { override: true } to replace it)`);
    const checkParams = options.params === undefined ? undefined : checkerOf(options.params as MethodSchema, `${what}: params`, this.compile);
    const checkResult = options.result === undefined ? undefined : checkerOf(options.result as MethodSchema, `${what}: result`, this.compile);
    const facts = schemaMethodFacts(method);
    const revisions = this.revisionsOf(what, options.revisions as unknown, facts !== undefined);
    const overridden = ROUTES.get(method);
    // A schema method's route comes from the schema: its result definition, whether it may ask, checked by the generated validators.
    const base =
      overridden ??
      (facts === undefined
        ? route(undefined, "", false, options.inputRequired !== false, { checked: false })
        : route(undefined, facts.result, facts.cacheable, facts.inputRequired));
    // The handler gets the method's own params: the envelope's members are in ctx (meta, and for a method that may
    // ask, inputResponses and requestState; a method that never asks may well take params of those names).
    const own = base.mayAskInput ? paramsWithoutEnvelope : withoutMeta;
    const call: AnyHandler = (params, ctx) => handler(own(params as Record<string, unknown>), ctx as ServerRequestContext);
    this.requests.set(
      method,
      Object.freeze({
        ...base,
        ...(options.override === true ? { overrides: true } : {}),
        ...(facts !== undefined ? { schema: true } : {}),
        ...(revisions !== undefined ? { revisions } : {}),
        handler: undefined,
        call,
        checkParams: checkParams === undefined ? undefined : async (params: Record<string, unknown>) => paramsOrThrow(await checkParams(own(params)), params),
        checkResult: checkResult === undefined ? undefined : async (result: Record<string, unknown>) => resultOrThrow(method, await checkResult(result)),
      }),
    );
  }

  /** A custom method's `revisions`, checked against what the server serves. @throws TypeError naming the served versions */
  private revisionsOf(what: string, given: unknown, schema: boolean): ReadonlySet<string> | undefined {
    if (given === undefined) return undefined;
    if (schema) {
      throw new TypeError(
        `${what}: revisions is for methods outside the schema; this method is served to the revisions whose schema defines it, so leave revisions out`,
      );
    }
    if (!Array.isArray(given) || given.length === 0)
      throw new TypeError(`${what}: revisions must be a non-empty list of protocol versions, e.g. ["${MODERN_VERSIONS[0]}"]`);
    const unknown = given.filter((version) => !this.served.includes(version as string));
    if (unknown.length > 0) {
      throw new TypeError(
        `${what}: this server does not serve ${unknown.map((version) => JSON.stringify(version)).join(", ")}; it serves ${this.served.join(", ")}`,
      );
    }
    return new Set(given as string[]);
  }

  /** Adds (or, with `override`, replaces) a notification handler. @throws TypeError on misuse */
  addNotification(method: string, options: Omit<CustomRequestOptions, "result">, handler: CustomNotificationHandler): void {
    const what = `setNotificationHandler(${JSON.stringify(method)})`;
    assertMethodName(method, "setNotificationHandler");
    if (!isObject(options)) throw new TypeError(`${what}: options must be an object, e.g. { params: { type: "object" } }`);
    if (typeof handler !== "function") throw new TypeError(`${what}: the handler must be a function (params, context) => void`);
    if (options.override !== true && (definedByProtocol(method) || this.notifications.has(method))) {
      throw new TypeError(`${what}: ${method} is already handled (by the protocol or an earlier registration); pass { override: true } to replace it.`);
    }
    const check = options.params === undefined ? undefined : checkerOf(options.params as MethodSchema, `${what}: params`, this.compile);
    this.notifications.set(method, {
      check: check === undefined ? undefined : async (params) => paramsOrThrow(await check(withoutMeta(params)), params),
      handler,
    });
  }
}

/** The params the handler gets once they passed, or the -32602 naming where they did not. */
function paramsOrThrow(checked: SchemaCheck & { value?: unknown }, params: Record<string, unknown>): Record<string, unknown> {
  if (!checked.ok) {
    const issues = checked.issues.map((issue) => ({ path: `/params${issue.path}`, message: issue.message }));
    throw new McpError(JsonRpcErrorCode.InvalidParams, `Invalid params: ${issues.map((issue) => `${issue.path || "/params"} ${issue.message}`).join("; ")}`, {
      issues,
    });
  }
  if (checked.value === undefined || checked.value === params) return params;
  // A Standard Schema's output (transforms, defaults) is what the handler gets; the envelope's members stay.
  const out = { ...(checked.value as Record<string, unknown>) };
  for (const key of ["_meta", "inputResponses", "requestState"]) if (key in params) out[key] = params[key];
  return out;
}

function resultOrThrow(method: string, checked: SchemaCheck): void {
  if (!checked.ok) throw internalError(`Internal error: the ${method} handler returned a result that does not match its result schema: ${checked.message}`);
}

/** Runs a custom notification's handler; what it throws or rejects with is for the log, never the peer. @internal */
export function runNotification(
  found: CustomNotification,
  params: Record<string, unknown>,
  context: RequestContext | undefined,
  onError: (error: unknown) => void,
): void {
  const run = async (): Promise<void> => {
    const checked = found.check === undefined ? params : await found.check(params);
    const done = found.handler(checked, context);
    if (isThenable(done)) await done;
  };
  run().catch(onError);
}
