import { JsonRpcErrorCode, McpError } from "../../jsonrpc/errors.js";
import { removeEntry, setEntryEnabled } from "./toggle.js";
import type {
  CallToolRequestParams,
  CallToolResult,
  InputRequiredResult,
  ListToolsResult,
  Tool,
  ToolAnnotations,
} from "../../../generated/2026-07-28/index.js";
import type { ServerRequestContext } from "../context.js";
import { internalError } from "../errors.js";
import { isInputRequired } from "../../input-required-guard.js";
import { schemaCompilerLoading } from "#schema-compiler";
import type { SchemaCompiler, SchemaValidator } from "../schema-check.js";
import type { HandlerResult, MaybePromise } from "../types.js";
import { paramHeadersMismatch, paramHeadersOf, type ParamHeader } from "../../transport/http/headers.js";
import { isModernVersion } from "../../transport/era.js";
import { checkScopes, requireScopes } from "../require-scopes.js";
import { escalationOf } from "../tasks/escalate.js";
import { taskDeclarationOf, type TaskDeclaration, type TaskSupport } from "../tasks/types.js";

/** How a tool describes itself in `tools/list`. */
export interface ToolConfig {
  /** A human-friendly name for clients to display; the registered name stays the identifier. */
  title?: string;
  /** What the tool does and when to use it: the model reads this to choose tools, so write it for the model. */
  description?: string;
  /** JSON Schema (2020-12 unless `$schema` says draft-07) of the arguments; checked before the handler runs. Default `{ type: "object" }`. */
  inputSchema?: Record<string, unknown>;
  /** JSON Schema of `structuredContent`; when given, every successful result must carry conforming `structuredContent`. */
  outputSchema?: Record<string, unknown>;
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
 */
export type ToolHandler<Args = Record<string, unknown>> = (
  args: Args,
  ctx: ServerRequestContext,
) => MaybePromise<HandlerResult<CallToolResult> | InputRequiredResult>;

interface RegisteredTool {
  readonly definition: Tool;
  readonly handler: ToolHandler;
  readonly checkInput: SchemaValidator;
  readonly checkOutput: SchemaValidator | undefined;
  /** The `x-mcp-header` annotations of its `inputSchema`, which HTTP requests must mirror. */
  readonly paramHeaders: readonly ParamHeader[];
  /** The scopes a caller's token must carry. */
  readonly scopes: readonly string[];
  readonly task: TaskDeclaration | undefined;
}

/** The tools of an `McpServer`, in registration order. @internal */
export class ToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  /** Disabled tools: registered, but neither listed nor callable. */
  private readonly parked = new Map<string, RegisteredTool>();
  private readonly compile: SchemaCompiler;
  private taskTools = 0;

  constructor(compile: SchemaCompiler) {
    this.compile = compile;
  }

  get size(): number {
    return this.tools.size;
  }

  register(name: string, config: ToolConfig, handler: ToolHandler): void {
    if (typeof name !== "string" || name.length === 0) throw new TypeError("McpServer.tool: the name must be a non-empty string");
    if (this.tools.has(name) || this.parked.has(name)) throw new TypeError(`McpServer.tool: a tool named ${JSON.stringify(name)} is already registered`);
    if (typeof config !== "object" || config === null) throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): config must be an object`);
    if (typeof handler !== "function") throw new TypeError(`McpServer.tool(${JSON.stringify(name)}): the handler must be a function`);
    const inputSchema = config.inputSchema ?? { type: "object" };
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
    const checkInput = this.compile(inputSchema, `inputSchema of tool ${JSON.stringify(name)}`);
    const checkOutput = config.outputSchema === undefined ? undefined : this.compile(config.outputSchema, `outputSchema of tool ${JSON.stringify(name)}`);
    const definition: Record<string, unknown> = { name, inputSchema };
    for (const key of ["title", "description", "outputSchema", "annotations", "icons", "_meta"] as const) {
      if (config[key] !== undefined) definition[key] = config[key];
    }
    this.tools.set(name, { definition: definition as unknown as Tool, handler, checkInput, checkOutput, paramHeaders: scan.headers, scopes: [...(config.scopes ?? [])], task });
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

  list(): HandlerResult<ListToolsResult> {
    return { tools: Array.from(this.tools.values(), (tool) => tool.definition) };
  }

  async call(params: CallToolRequestParams, ctx: ServerRequestContext): Promise<HandlerResult<CallToolResult> | InputRequiredResult> {
    const tool = this.tools.get(params.name);
    if (tool === undefined) throw new McpError(JsonRpcErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    // Before anything of the tool runs (MCP basic/authorization, "Runtime Insufficient Scope Errors").
    if (tool.scopes.length > 0) requireScopes(ctx, tool.scopes, `tool ${params.name}`);
    const args = params.arguments ?? {};
    if (tool.paramHeaders.length > 0 && isModernVersion(ctx.protocolVersion)) {
      // The spec makes the server check what an intermediary routed on against the body it runs with.
      const headers = ctx.headers;
      const mismatch = headers === undefined ? undefined : paramHeadersMismatch(tool.paramHeaders, args, headers);
      if (mismatch !== undefined) throw new McpError(JsonRpcErrorCode.HeaderMismatch, mismatch);
    }
    // Only on a runtime that loads the built-in compiler asynchronously, and only until it has.
    const compilerLoading = schemaCompilerLoading();
    if (compilerLoading !== undefined) await compilerLoading;
    const input = tool.checkInput(args);
    if (!input.ok) {
      // A tool execution error, not a protocol error (tools.mdx, Error Handling): the model
      // reads the message and can call again with corrected arguments.
      return {
        content: [{ type: "text", text: `Invalid arguments for tool ${params.name}: ${input.message}` }],
        isError: true,
      };
    }
    const result = await tool.handler(args, ctx);
    if (tool.checkOutput !== undefined && !isInputRequired(result) && escalationOf(result) === undefined && typeof result === "object" && result !== null && result.isError !== true) {
      if (!("structuredContent" in result)) {
        throw internalError(`Internal error: tool ${params.name} declares an outputSchema but returned no structuredContent`);
      }
      const output = tool.checkOutput(result.structuredContent);
      if (!output.ok) {
        throw internalError(`Internal error: structuredContent of tool ${params.name} does not match its outputSchema: ${output.message}`);
      }
    }
    return result;
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
