/**
 * What `McpServer` takes besides its registrations: its options, and the
 * type machinery its overloads share.
 *
 * @module
 */
import type { ServerCapabilities } from "../protocol/types.js";
import type { SchemaCompilerChoice } from "./schema/schema-check.js";
import type { ToolArgs } from "./schema/types/tool-types.js";
import type { StandardSchemaConverter } from "./schema/standard.js";
import type { ServerOptions } from "./server.js";
import type { RequestStateSealer } from "./state-boundary.js";

/** Options of {@link McpServer}. */
export interface McpServerOptions extends Omit<ServerOptions, "capabilities"> {
  /**
   * How `requestState` is sealed. Default: `RequestStateSecurity.ephemeral()`,
   * a key that lives and dies with this process, which suits stdio and a
   * single HTTP worker. Pass `new RequestStateSecurity({ keys: [...] })`
   * whenever a retry may reach another instance or outlive a restart.
   */
  requestStateSecurity?: RequestStateSealer;
  /**
   * The audience sealed into every token. Default: the security's own
   * audience, else the server's name.
   */
  audience?: string;
  /** Extra capabilities to advertise on top of the ones the registrations imply. */
  capabilities?: ServerCapabilities;
  /**
   * Compiles tool input and output schemas (2020-12, and draft-07 via
   * `$schema`). `"auto"` (the default): AJV, which generates code at
   * registration, where the runtime allows it and the package resolved
   * under the `node` condition; else the eval-free validator
   * (`@cfworker/json-schema`), as on Cloudflare Workers and in browser
   * bundles. `"ajv"` or `"eval-free"` forces one; a function is your own.
   */
  compileSchema?: SchemaCompilerChoice;
  /**
   * Turns a tool's (or a prompt's arguments') Standard Schema into the JSON
   * Schema `tools/list` advertises (or `prompts/list` lists the arguments of), for a library that does not implement Standard JSON Schema
   * (`~standard.jsonSchema`; zod 4 and arktype do): its own converter, e.g.
   * `toJsonSchema` from `@valibot/to-json-schema`. Runs once per schema, at
   * registration. (An elicitation form is built inside a resolver, out of the
   * server's reach: `elicit` takes its own `toJsonSchema`.)
   */
  toJsonSchema?: StandardSchemaConverter;
}

/**
 * The handler's `args`: typed from `inputSchema` when one is given, else from the `needs` declaration's arguments.
 * @internal
 */
export type HandlerArgs<In, Args> = [In] extends [undefined] ? Args : ToolArgs<In>;
