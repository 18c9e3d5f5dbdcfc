import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { removeEntry, setEntryEnabled } from "./toggle.js";
import type {
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  Prompt,
  PromptArgument,
  PromptMessage,
} from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import { checkCompleters, complete, type Completer } from "./completions.js";
import type { FromSchema } from "../schema/types/infer.js";
import { isStandardSchema, jsonSchemaOfStandard, standardValidatorOf, type StandardSchemaConverter, type StandardValidator } from "../schema/standard.js";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import type { ToolArgs } from "../schema/types/tool-types.js";

/**
 * How a prompt describes itself in `prompts/list`.
 *
 * @typeParam Args - the `arguments` list's type; `McpServer.prompt` infers it, so a literal list types the handler's `args`
 */
export interface PromptConfig<Args extends PromptArguments | undefined = PromptArguments | undefined> {
  /** A human-friendly name for clients to display; the registered name stays the identifier. */
  title?: string;
  /** What the prompt produces, shown to the user picking one. */
  description?: string;
  /**
   * The prompt's arguments; those marked `required` are checked before the handler runs. Written inline (or
   * `as const`), the list types the handler's `args`: `[{ name: "topic", required: true }, { name: "tone" }]`
   * gives `{ topic: string; tone?: string }`. Or a Standard Schema of the arguments object (zod 4, valibot,
   * arktype): `prompts/list` shows its properties as the arguments (with their descriptions; `required` from
   * the library's JSON Schema), the library validates the arguments (a failure answers `-32602` naming the
   * path), and the handler gets its output.
   */
  arguments?: Args;
  /** Icons a client may show beside the prompt. */
  icons?: Prompt["icons"];
  /** Extra metadata for the prompt's `prompts/list` entry, passed through as given. */
  _meta?: Record<string, unknown>;
  /** Completion suggestions per argument name, served on `completion/complete`. */
  complete?: Record<string, Completer>;
}

/** What a prompt's `arguments` may be: the list of arguments, or a Standard Schema of the arguments object. */
export type PromptArguments = readonly PromptArgument[] | StandardSchemaV1;

/**
 * The handler's `args` for a prompt's `arguments` list, read as the object
 * schema it amounts to (every argument a string, the `required` ones
 * present) by the one schema reader, {@link FromSchema}. A list that is not
 * a literal type gives `Record<string, string>`; a Standard Schema gives its output type.
 */
export type PromptArgs<List> = List extends StandardSchemaV1
  ? ToolArgs<List>
  : List extends readonly PromptArgument[]
    ? string extends List[number]["name"]
      ? Record<string, string>
      : FromSchema<{
          readonly type: "object";
          readonly properties: { readonly [Name in List[number]["name"]]: { readonly type: "string" } };
          readonly required: readonly Extract<List[number], { readonly required: true }>["name"][];
        }>
    : Record<string, string>;

/**
 * A prompt's body: receives the arguments and the request context; returns
 * the messages (alone or as a `GetPromptResult`), or an `InputRequiredResult`.
 *
 * @typeParam Args - the arguments, as the `arguments` list types them
 */
export type PromptHandler<Args extends Record<string, unknown> = Record<string, string>> = (
  args: Args,
  ctx: ServerRequestContext,
) => MaybePromise<HandlerResult<GetPromptResult> | PromptMessage[] | InputRequiredResult>;

interface RegisteredPrompt {
  readonly definition: Prompt;
  readonly handler: PromptHandler;
  readonly required: readonly string[];
  /** The library's check of the arguments, when they were given as a Standard Schema. */
  readonly parse: StandardValidator | undefined;
  readonly completers: Record<string, Completer>;
}

/**
 * The `arguments` list a Standard Schema of a prompt's arguments amounts to:
 * one argument per property of its JSON Schema, with its description and
 * title, required as its `required` says.
 * @throws TypeError when the JSON Schema is not an object schema with `properties`
 */
function argumentsOf(schema: Record<string, unknown>, label: string): PromptArgument[] {
  const properties = schema.properties;
  if (schema.type !== "object" || typeof properties !== "object" || properties === null || Array.isArray(properties)) {
    throw new TypeError(`${label}: the arguments schema must describe an object of named arguments (its JSON Schema has no "properties")`);
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties as Record<string, Record<string, unknown>>).map(([name, property]) => {
    const argument: PromptArgument = { name };
    if (typeof property?.title === "string") argument.title = property.title;
    if (typeof property?.description === "string") argument.description = property.description;
    if (required.has(name)) argument.required = true;
    return argument;
  });
}

/** The prompts of an `McpServer`. @internal */
export class PromptRegistry {
  private readonly prompts = new Map<string, RegisteredPrompt>();
  /** Disabled prompts: registered, but neither listed nor callable. */
  private readonly parked = new Map<string, RegisteredPrompt>();
  private readonly toJsonSchema: StandardSchemaConverter | undefined;

  constructor(toJsonSchema?: StandardSchemaConverter) {
    this.toJsonSchema = toJsonSchema;
  }

  get size(): number {
    return this.prompts.size;
  }

  get hasCompleters(): boolean {
    for (const prompt of this.prompts.values()) if (Object.keys(prompt.completers).length > 0) return true;
    return false;
  }

  register(name: string, config: PromptConfig, handler: PromptHandler<any>): void {
    const label = `McpServer.prompt(${JSON.stringify(name)})`;
    if (typeof name !== "string" || name.length === 0) throw new TypeError("McpServer.prompt: the name must be a non-empty string");
    if (this.prompts.has(name) || this.parked.has(name)) throw new TypeError(`McpServer.prompt: a prompt named ${JSON.stringify(name)} is already registered`);
    if (typeof config !== "object" || config === null) throw new TypeError(`${label}: config must be an object`);
    if (typeof handler !== "function") throw new TypeError(`${label}: the handler must be a function`);
    const schema = isStandardSchema(config.arguments) ? config.arguments : undefined;
    const args =
      schema !== undefined ? argumentsOf(jsonSchemaOfStandard(schema, "input", `${label}: arguments`, this.toJsonSchema), label) : (config.arguments ?? []);
    if (!Array.isArray(args) || args.some((arg) => typeof arg?.name !== "string")) {
      throw new TypeError(`${label}: arguments must be an array of { name, description?, required? }`);
    }
    const names = args.map((arg) => arg.name);
    const completers = checkCompleters(config.complete, label, names);
    const definition: Record<string, unknown> = { name };
    for (const key of ["title", "description", "icons", "_meta"] as const) {
      if (config[key] !== undefined) definition[key] = config[key];
    }
    if (args.length > 0) definition.arguments = args;
    const required = args.filter((arg) => arg.required === true).map((arg) => arg.name);
    const parse = schema === undefined ? undefined : standardValidatorOf(schema);
    this.prompts.set(name, { definition: definition as unknown as Prompt, handler: handler as PromptHandler, required, parse, completers });
  }

  list(): HandlerResult<ListPromptsResult> {
    return { prompts: Array.from(this.prompts.values(), (prompt) => prompt.definition) };
  }

  async get(params: GetPromptRequestParams, ctx: ServerRequestContext): Promise<HandlerResult<GetPromptResult> | InputRequiredResult> {
    const prompt = this.prompts.get(params.name);
    if (prompt === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown prompt: ${params.name}`);
    const args = params.arguments ?? {};
    const missing = prompt.required.filter((name) => args[name] === undefined);
    if (missing.length > 0) {
      throw new McpError(JsonRpcErrorCode.InvalidParams, `Missing required arguments for prompt ${params.name}: ${missing.join(", ")}`);
    }
    let input: Record<string, unknown> = args;
    if (prompt.parse !== undefined) {
      const parsed = await prompt.parse(args);
      if (!parsed.ok)
        throw new McpError(JsonRpcErrorCode.InvalidParams, `Invalid arguments for prompt ${params.name}: ${parsed.message}`, { issues: parsed.issues });
      input = parsed.value as Record<string, unknown>;
    }
    const result = await prompt.handler(input as Record<string, string>, ctx);
    return Array.isArray(result) ? { messages: result } : result;
  }

  complete(name: string, argument: string, value: string, context: Record<string, string> | undefined): Promise<HandlerResult<CompleteResult>> {
    const prompt = this.prompts.get(name);
    if (prompt === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown prompt: ${name}`);
    return complete(prompt.completers[argument], value, context);
  }

  /** Removes a prompt. @returns whether it was registered */
  remove(name: string): boolean {
    return removeEntry({ live: this.prompts, parked: this.parked }, name);
  }

  /** Enables or disables a prompt. @returns whether anything changed @throws TypeError for an unknown name */
  setEnabled(name: string, enabled: boolean): boolean {
    return setEntryEnabled({ live: this.prompts, parked: this.parked }, name, enabled, "prompt");
  }
}
