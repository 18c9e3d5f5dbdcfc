/**
 * What a tool's schemas make of its handler's types: `args` from
 * `inputSchema`, the `structuredContent` it must return from
 * `outputSchema`. Both kinds of schema are read: a JSON Schema literal
 * (through {@link FromSchema}) and a Standard Schema (its declared types).
 * Types only.
 *
 * @module
 */
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { CallToolResult, ContentBlock } from "../../../protocol/types.js";
import type { HandlerResult } from "../../types.js";
import type { TaskEscalation } from "../../tasks/escalate.js";
import type { FromSchema, JsonSchemaObject } from "./infer.js";

/**
 * A schema a tool takes: a JSON Schema object (a literal, inline, `as const` or through `jsonSchema(...)`, types the
 * handler) or a Standard Schema (zod 4, valibot, arktype, …). A schema typed only as `object`, `JsonSchemaObject` or
 * an interface such as `JSONSchema7` is taken too, and types the handler as `Record<string, unknown>`.
 */
export type ToolSchema = JsonSchemaObject | StandardSchemaV1 | object;

/** `T` when it is a JSON object type, else `Record<string, unknown>` (a widened or non-object schema). */
type ObjectOr<T> = T extends Record<string, unknown> ? T : Record<string, unknown>;

/**
 * The handler's `args` for an `inputSchema`: a Standard Schema's output type
 * (after its transforms and defaults), a JSON Schema literal's reading, or
 * `Record<string, unknown>` when the schema is absent or widened.
 *
 * @example
 * ```ts
 * import type { ToolArgs } from "mcp-roundtrip/server";
 * const add = { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } as const;
 * type AddArgs = ToolArgs<typeof add>; // { a: number; b: number }
 * ```
 */
export type ToolArgs<In> = In extends undefined
  ? Record<string, unknown>
  : In extends StandardSchemaV1
    ? unknown extends StandardSchemaV1.InferOutput<In>
      ? Record<string, unknown>
      : StandardSchemaV1.InferOutput<In>
    : ObjectOr<FromSchema<In>>;

/**
 * The `structuredContent` a handler returns for an `outputSchema`
 * (`undefined`: the tool declares none, or its config is typed as a plain
 * `ToolConfig`, which may lack one). For a Standard Schema it is the
 * schema's input type: the value is validated, and the library's output
 * is what goes on the wire.
 */
export type ToolStructuredContent<Out> = undefined extends Out
  ? undefined // no outputSchema, or one typed as maybe absent (a config typed as plain ToolConfig)
  : Out extends StandardSchemaV1
    ? unknown extends StandardSchemaV1.InferInput<Out>
      ? Record<string, unknown>
      : StandardSchemaV1.InferInput<Out>
    : ObjectOr<FromSchema<Out>>;

/**
 * A successful result of a tool with an `outputSchema`: `structuredContent`
 * of the declared shape; `content` may be left out, and is then filled with
 * one text block holding the JSON of `structuredContent`.
 */
export type StructuredToolResult<S> = Omit<HandlerResult<CallToolResult>, "content" | "structuredContent" | "isError"> & {
  /** What a client that ignores `structuredContent` shows; omitted, it is one text block holding the JSON. */
  content?: ContentBlock[];
  /** The result as data, typed (and checked before sending) by the tool's `outputSchema`. */
  structuredContent: S;
  /** A successful result; an error result (`isError: true`) needs no `structuredContent`. */
  isError?: false;
};

/**
 * An error result of a tool with an `outputSchema` (`isError: true`): the
 * model reads its `content`; it needs no `structuredContent`, and has none
 * in its type, so a successful result with the wrong `structuredContent` is
 * reported at the offending member rather than as a missing `isError`.
 */
export type ToolErrorResult = Omit<HandlerResult<CallToolResult>, "structuredContent" | "isError"> & {
  /** An error result the model reads: it needs no `structuredContent`. */
  isError: true;
};

/**
 * What a tool handler may return (besides an `InputRequiredResult`): any
 * `CallToolResult` when the tool has no `outputSchema` (`S` is `undefined`),
 * else a {@link StructuredToolResult}, a {@link ToolErrorResult}
 * (`isError: true`, which needs no `structuredContent`) or a
 * `runAsTask(...)` escalation.
 */
export type ToolResult<S = undefined> = [S] extends [undefined]
  ? HandlerResult<CallToolResult>
  : StructuredToolResult<S> | ToolErrorResult | Omit<TaskEscalation, "structuredContent">;
