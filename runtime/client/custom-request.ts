/**
 * `client.request`, loaded on its first use so the browser client's entry
 * chunk does not carry it: the checks of the arguments, the caller's own
 * `params._meta` moved to the request's extra `_meta`, the rounds (the same
 * loop as `callTool`), and, for a method outside the protocol schema, the
 * check of the result against its schema.
 *
 * @internal
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { CustomCallOptions } from "./options.js";
import type { CallDescriptor } from "./pending.js";
import type { JsonObject } from "./protocol.js";

/** Runs `call` to completion (the client's own loop) and checks the result against `options.result`. @internal */
export async function customRequest(
  method: string,
  params: JsonObject | undefined,
  options: CustomCallOptions | undefined,
  run: (call: CallDescriptor, options: CustomCallOptions | undefined) => Promise<JsonObject>,
  // Passed in rather than imported: an import would split the error classes off the browser entry chunk.
  invalid: (method: string, message: string, result: unknown) => Error,
): Promise<JsonObject> {
  if (typeof method !== "string" || method === "") throw new TypeError(`client.request needs a method name such as "widgets/list", got ${JSON.stringify(method)}.`);
  if (params !== undefined && (typeof params !== "object" || params === null || Array.isArray(params))) {
    throw new TypeError(`client.request(${JSON.stringify(method)}): params must be an object, got ${Array.isArray(params) ? "an array" : typeof params}.`);
  }
  const schema = options?.result;
  if (schema !== undefined && (typeof schema !== "object" || schema === null)) {
    throw new TypeError(`client.request(${JSON.stringify(method)}): result must be a JSON Schema object or a Standard Schema.`);
  }
  const { _meta: meta, ...rest } = params ?? {};
  if (meta !== undefined && (typeof meta !== "object" || meta === null || Array.isArray(meta))) {
    throw new TypeError(`client.request(${JSON.stringify(method)}): params._meta must be an object of extra _meta keys, got ${typeof meta}.`);
  }
  // The envelope's keys are the client's (Connection.send merges them over these), as with options.meta.
  const callOptions = meta === undefined ? options : { ...options, meta: { ...(meta as JsonObject), ...options?.meta } };
  const result = await run({ method, custom: true, params: rest }, callOptions);
  if (schema === undefined) return result;
  return isStandardSchema(schema) ? checkStandard(method, schema, result, invalid) : checkJsonSchema(method, schema, result, invalid);
}

type Invalid = (method: string, message: string, result: unknown) => Error;

function isStandardSchema(schema: object): schema is StandardSchemaV1 {
  const standard = (schema as { "~standard"?: { validate?: unknown } })["~standard"];
  return typeof standard === "object" && standard !== null && typeof standard.validate === "function";
}

async function checkStandard(method: string, schema: StandardSchemaV1, result: JsonObject, invalid: Invalid): Promise<JsonObject> {
  const checked = await schema["~standard"].validate(result);
  if (checked.issues === undefined) return checked.value as JsonObject;
  const where = checked.issues.map((issue) =>
    `${issue.path?.map((segment) => `/${String(typeof segment === "object" ? segment.key : segment)}`).join("") ?? ""} ${issue.message}`.trim(),
  );
  throw invalid(method, `the result does not fit the schema given to client.request: ${where.join("; ")}`, result);
}

async function checkJsonSchema(method: string, schema: Record<string, unknown>, result: JsonObject, invalid: Invalid): Promise<JsonObject> {
  // Eval-free, so it runs wherever the client does (a browser page, a worker).
  const { Validator } = await import("@cfworker/json-schema");
  const dialect = typeof schema.$schema === "string" && schema.$schema.includes("draft-07") ? "7" : "2020-12";
  const outcome = new Validator(schema as never, dialect, false).validate(result);
  if (outcome.valid) return result;
  const where = outcome.errors.filter((error) => error.keyword !== "properties").map((error) => `${error.instanceLocation.replace(/^#/, "") || "/"} ${error.error}`);
  throw invalid(method, `the result does not fit the schema given to client.request: ${where.join("; ")}`, result);
}
