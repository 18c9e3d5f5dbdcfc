import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import { removeEntry, setEntryEnabled } from "./toggle.js";
import type { CallToolRequestParams, CallToolResult, InputRequiredResult, ListToolsResult, Tool, ToolAnnotations } from "../../protocol/types.js";
import type { ServerRequestContext } from "../context.js";
import { internalError } from "../errors.js";
import { isInputRequired } from "../../protocol/input-required-guard.js";
import type { SchemaCompiler, SchemaValidator } from "../schema/schema-check.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import { isThenable } from "../../protocol/guards.js";
import { paramHeadersOf, type ParamHeader } from "../../protocol/param-headers.js";
import { paramHeadersMismatch } from "../../protocol/param-header-check.js";
import { checkScopes, requireScopes } from "../require-scopes.js";
import { escalationOf } from "../tasks/escalate.js";
import { taskDeclarationOf, type TaskDeclaration, type TaskSupport } from "../tasks/types.js";
import { isStandardSchema, jsonSchemaOfStandard, standardValidatorOf, type StandardSchemaConverter, type StandardValidator } from "../schema/standard.js";
import type { ToolResult, ToolSchema } from "../schema/types/tool-types.js";
import { unknownRequiredName, unknownRequiredNameError } from "../schema/required-names.js";

/**
 * How a tool describes itself in `tools/list`.
 *
 * @typeParam In - the `inputSchema`'s type; `McpServer.tool` infers it, so an `as const` (or inline) literal types `args`
 * @typeParam Out - the `outputSchema`'s type, which types the `structuredContent` the handler returns
 */
export interface ToolConfig<In extends ToolSchema | undefined = ToolSchema | undefined, Out extends ToolSchema | undefined = ToolSchema | undefined> {
  /** A human-friendly name for clients to display; the registered name stays the identifier. */
  title?: string;
  /** What the tool does and when to use it: the model reads this to choose tools, so write it for the model. */
  description?: string;
  /**
   * The arguments' schema, checked before the handler runs. Default `{ type: "object" }`. Either a JSON Schema
   * (2020-12 unless `$schema` says draft-07; written inline or `as const`, it types `args`), or a Standard Schema
   * (zod 4, valibot, arktype, …): validated with the library's own `~standard.validate`, so its refinements,
   * transforms and defaults apply and the handler gets its output, and advertised as the library's JSON Schema.
   */
  inputSchema?: In;
  /**
   * The schema of `structuredContent`, JSON Schema or Standard Schema as for `inputSchema`; when given, every
   * successful result must carry conforming `structuredContent` (checked before it is sent), and a result without
   * `content` gets one text block holding its JSON.
   */
  outputSchema?: Out;
  /** Hints for the client (read-only, destructive, idempotent, open-world); untrusted, never a security boundary. */
  annotations?: ToolAnnotations;
  /** Icons a client may show beside the tool. */
  icons?: Tool["icons"];
  /** Extra metadata for the tool's `tools/list` entry, passed through as given. */
  _meta?: Record<string, unknown>;
  /**
   * OAuth scopes the caller's access token must carry to call the tool, e.g.
   * `["files:write"]`. Without them the call is refused before the body
   * runs: over HTTP with `authorization`, `403` with a `WWW-Authenticate`
   * challenge naming the scopes (so the client steps up); elsewhere a
   * JSON-RPC `-32600` with `data.reason: "insufficient_scope"`. A call
   * without a verified token is refused too.
   */
  scopes?: readonly string[];
  /**
   * Whether calls may run as tasks (the tasks extension): `"optional"`,
   * `"required"`, or `{ support, start: "escalate" }` for a handler that
   * escalates with `runAsTask` (see {@link TaskSupport}). Omitted: never.
   */
  task?: TaskSupport;
}

/**
 * A tool's body: receives the validated arguments and the request context;
 * returns the result, or an `InputRequiredResult` to ask the client first.
 *
 * @typeParam Args - the arguments, as the `inputSchema` types them
 * @typeParam Structured - the `structuredContent` the `outputSchema` asks for; `undefined` when there is none
 */
export type ToolHandler<Args = Record<string, unknown>, Structured = undefined> = (
  args: Args,
  ctx: ServerRequestContext,
) => MaybePromise<ToolResult<Structured> | InputRequiredResult>;

interface RegisteredTool {
  readonly definition: Tool;
  readonly handler: ToolHandler;
  /** The JSON Schema check of the arguments; `undefined` when a Standard Schema parses them instead. */
  readonly checkInput: SchemaValidator | undefined;
  readonly parseInput: StandardValidator | undefined;
  readonly checkOutput: SchemaValidator | undefined;
  readonly parseOutput: StandardValidator | undefined;
  /** The `x-mcp-header` annotations of its `inputSchema`, which HTTP requests must mirror. */
  readonly paramHeaders: readonly ParamHeader[];
  /** The scopes a caller's token must carry. */
  readonly scopes: readonly string[];
  readonly task: TaskDeclaration | undefined;
}

/**
 * A tool execution error, not a protocol error (tools.mdx, Error Handling): the model
 * reads the message and can call again with corrected arguments.
 */
function invalidArguments(tool: string, message: string): HandlerResult<CallToolResult> {
  return { content: [{ type: "text", text: `Invalid arguments for tool ${tool}: ${message}` }], isError: true };
}

const outputMismatch = (tool: string, message: string) =>
  internalError(`Internal error: structuredContent of tool ${tool} does not match its outputSchema: ${message}`);

/** The tools of an `McpServer`, in registration order. @internal */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  /** Disabled tools: registered, but neither listed nor callable. */
  private readonly parked = new Map<string, RegisteredTool>();
  private readonly compile: SchemaCompiler;
  private readonly toJsonSchema: StandardSchemaConverter | undefined;
  private taskTools = 0;

  constructor(compile: SchemaCompiler, toJsonSchema?: StandardSchemaConverter) {
    this.compile = compile;
    this.toJsonSchema = toJsonSchema;
  }

  get size(): number {
    return this.tools.size;
  }

  register(name: string, config: ToolConfig, handler: ToolHandler): void {
    if (typeof name !== "string" || name.length === 0) throw new TypeError("McpServer.tool: the name must be a non-empty string");
    if (this.tools.has(name) || this.parked.has(name)) throw new TypeError(`McpServer.tool: a tool named ${JSON.stringify(name)} is already registered`);
    if (typeof config !== "object" || config === null) throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): config must be an object`);
    if (typeof handler !== "function") throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): the handler must be a function`);
    const label = `McpServer.tool(${JSON.stringify(name)})`;
    // A Standard Schema validates itself; what tools/list shows is the library's JSON Schema of it.
    const standardInput = isStandardSchema(config.inputSchema) ? config.inputSchema : undefined;
    const standardOutput = isStandardSchema(config.outputSchema) ? config.outputSchema : undefined;
    const inputSchema: Record<string, unknown> =
      standardInput !== undefined
        ? jsonSchemaOfStandard(standardInput, "input", `${label}: inputSchema`, this.toJsonSchema)
        : ((config.inputSchema as Record<string, unknown> | undefined) ?? { type: "object" });
    const outputSchema =
      standardOutput !== undefined
        ? jsonSchemaOfStandard(standardOutput, "output", `${label}: outputSchema`, this.toJsonSchema)
        : (config.outputSchema as Record<string, unknown> | undefined);
    for (const [which, schema] of [
      ["inputSchema", inputSchema],
      ["outputSchema", outputSchema],
    ] as const) {
      const unknownName = unknownRequiredName(schema);
      if (unknownName !== undefined) throw unknownRequiredNameError(`${label}: ${which}`, unknownName);
    }
    if ((inputSchema as { type?: unknown }).type !== "object") {
      throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): inputSchema must describe an object ({ type: "object", ... })`);
    }
    const scan = paramHeadersOf(inputSchema);
    if (!scan.ok) {
      // HTTP clients must drop such a tool from tools/list (SEP-2243), so it could never be called.
      throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): ${scan.reason}`);
    }
    if (config.scopes !== undefined) checkScopes(config.scopes, `McpServer.tool(${JSON.stringify(name)})`);
    const task = taskDeclarationOf(`McpServer.tool(${JSON.stringify(name)})`, config.task);
    const checkInput = standardInput !== undefined ? undefined : this.compile(inputSchema, `inputSchema of tool ${JSON.stringify(name)}`);
    const checkOutput =
      outputSchema === undefined || standardOutput !== undefined ? undefined : this.compile(outputSchema, `outputSchema of tool ${JSON.stringify(name)}`);
    const definition: Record<string, unknown> = { name, inputSchema };
    for (const key of ["title", "description", "outputSchema", "annotations", "icons", "_meta"] as const) {
      if (config[key] !== undefined) definition[key] = key === "outputSchema" ? outputSchema : config[key];
    }
    this.tools.set(name, {
      definition: definition as unknown as Tool,
      handler,
      checkInput,
      parseInput: standardInput === undefined ? undefined : standardValidatorOf(standardInput),
      checkOutput,
      parseOutput: standardOutput === undefined ? undefined : standardValidatorOf(standardOutput),
      paramHeaders: scan.headers,
      scopes: [...(config.scopes ?? [])],
      task,
    });
    if (task !== undefined) this.taskTools++;
  }

  /** Whether any tool declares `task`. */
  get hasTaskTools(): boolean {
    return this.taskTools > 0;
  }

  /** The `task` declaration of a tool, if it has one. */
  taskOf(name: string): TaskDeclaration | undefined {
    return this.tools.get(name)?.task;
  }

  /** A tool's `tools/list` entry, if it is registered and enabled. */
  listed(name: string): Tool | undefined {
    return this.tools.get(name)?.definition;
  }

  list(): HandlerResult<ListToolsResult> {
    return { tools: Array.from(this.tools.values(), (tool) => tool.definition) };
  }

  /**
   * Runs a tool: scopes, `Mcp-Param` headers, the input check, the handler,
   * the output check. Synchronous while nothing has to be awaited (a compiled
   * input check and a handler that returns its result): a plain call then
   * allocates no promise here and costs its caller no extra turn.
   * @throws McpError for an unknown tool, missing scopes or a header mismatch; whatever the handler throws
   */
  call(params: CallToolRequestParams, ctx: ServerRequestContext): MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult> {
    const tool = this.tools.get(params.name);
    if (tool === undefined) {
      if (this.tools.size === 0)
        throw new McpError(JsonRpcErrorCode.MethodNotFound, "Tools not supported", { reason: "Server does not support the tools capability" });
      throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    }
    // Before anything of the tool runs (MCP basic/authorization, "Runtime Insufficient Scope Errors").
    if (tool.scopes.length > 0) requireScopes(ctx, tool.scopes, `tool ${params.name}`);
    const args = params.arguments ?? {};
    // Mcp-Param headers exist only in 2026-07-28: the era the request was classified with says whether to check them.
    if (tool.paramHeaders.length > 0 && (ctx as { era?: string }).era === "modern") {
      // The spec makes the server check what an intermediary routed on against the body it runs with.
      const headers = ctx.headers;
      const mismatch = headers === undefined ? undefined : paramHeadersMismatch(tool.paramHeaders, args, headers);
      if (mismatch !== undefined) throw new McpError(JsonRpcErrorCode.HeaderMismatch, mismatch);
    }
    // Only a validator compiled on first use has `loading` (a runtime that loads its compiler asynchronously), and only until it has.
    const compilerLoading = tool.checkInput?.loading?.();
    if (compilerLoading !== undefined) return compilerLoading.then(() => this.runChecked(tool, params, ctx, args));
    if (tool.checkInput === undefined) return this.runParsed(tool, params, ctx, args);
    return this.runChecked(tool, params, ctx, args);
  }

  /** The compiled input check, then the handler: synchronous unless the handler answers with a promise. */
  private runChecked(
    tool: RegisteredTool,
    params: CallToolRequestParams,
    ctx: ServerRequestContext,
    args: Record<string, unknown>,
  ): MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult> {
    const check = tool.checkInput!(args);
    if (!check.ok) return invalidArguments(params.name, check.message);
    const result = tool.handler(args, ctx);
    if (isThenable<HandlerResult<CallToolResult> | InputRequiredResult>(result))
      return Promise.resolve(result).then((done) => this.finishResult(tool, params, done));
    return this.finishResult(tool, params, result);
  }

  /** A Standard Schema's own parse of the input (its transforms and defaults applied), then the handler. */
  private async runParsed(
    tool: RegisteredTool,
    params: CallToolRequestParams,
    ctx: ServerRequestContext,
    args: Record<string, unknown>,
  ): Promise<HandlerResult<CallToolResult> | InputRequiredResult> {
    const parsed = await tool.parseInput!(args);
    if (!parsed.ok) return invalidArguments(params.name, parsed.message);
    return this.finishResult(tool, params, await tool.handler(parsed.value as Record<string, unknown>, ctx));
  }

  /** The output check of what the handler returned, and the text copy of structured content. */
  private finishResult(
    tool: RegisteredTool,
    params: CallToolRequestParams,
    result: HandlerResult<CallToolResult> | InputRequiredResult,
  ): MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult> {
    if (typeof result !== "object" || result === null) return result;
    const checksOutput = tool.checkOutput !== undefined || tool.parseOutput !== undefined;
    if (checksOutput && !isInputRequired(result) && escalationOf(result) === undefined && result.isError !== true) {
      if (!("structuredContent" in result)) {
        throw internalError(`Internal error: tool ${params.name} declares an outputSchema but returned no structuredContent`);
      }
      if (tool.checkOutput !== undefined) {
        const output = tool.checkOutput(result.structuredContent);
        if (!output.ok) throw outputMismatch(params.name, output.message);
      } else {
        return Promise.resolve(tool.parseOutput!(result.structuredContent)).then((output) => {
          if (!output.ok) throw outputMismatch(params.name, output.message);
          // What goes on the wire is the library's output (its transforms and defaults applied).
          return withTextCopy({ ...result, structuredContent: output.value as Record<string, unknown> });
        });
      }
    }
    return withTextCopy(result);
  }

  /** Removes a tool. @returns whether it was registered */
  remove(name: string): boolean {
    return removeEntry({ live: this.tools, parked: this.parked }, name);
  }

  /** Enables or disables a tool. @returns whether anything changed @throws TypeError for an unknown name */
  setEnabled(name: string, enabled: boolean): boolean {
    return setEntryEnabled({ live: this.tools, parked: this.parked }, name, enabled, "tool");
  }
}

/**
 * The spec's SHOULD: a tool returning structured content also gives it as text, for clients that read only content.
 * (An InputRequiredResult has no structuredContent, a runAsTask marker has content: neither is touched.)
 */
function withTextCopy(result: HandlerResult<CallToolResult> | InputRequiredResult): HandlerResult<CallToolResult> | InputRequiredResult {
  const structured = result as { content?: unknown; structuredContent?: unknown };
  if (structured.content === undefined && structured.structuredContent !== undefined) {
    return { ...result, content: [{ type: "text", text: JSON.stringify(structured.structuredContent) }] } as HandlerResult<CallToolResult>;
  }
  return result;
}
