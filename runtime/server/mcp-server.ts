import { createLogger } from "../protocol/logging.js";
import type { JsonRpcResponse } from "../protocol/jsonrpc/messages.js";
import type { LegacyMode, RequestContext } from "../protocol/context.js";
import type { Answered, ServerSession, SessionHost, SessionPeer } from "../protocol/contracts.js";
import type { Implementation, ServerCapabilities } from "../protocol/types.js";
import { PromptRegistry, type PromptArgs, type PromptArguments, type PromptConfig, type PromptHandler } from "./registry/prompts.js";
import { ResourceRegistry, type ResourceConfig, type StaticResourceHandler, type TemplateResourceHandler } from "./registry/resources.js";
import { ToolRegistry, type ToolConfig, type ToolHandler } from "./registry/tools.js";
import type { ToolArgs, ToolSchema, ToolStructuredContent } from "./schema/types/tool-types.js";
import type { RequiredNamesCheck } from "./schema/types/required-names.js";
import { withDependencies, type DependentToolHandler, type NeedsOption, type ToolBody, type ToolNeeds } from "./dependencies/tool.js";
import type {
  DependentPromptHandler,
  DependentTemplateResourceHandler,
  AStaticResourceTakesNoNeedsUseATemplate,
  PromptBody,
  PromptNeeds,
  ResourceBody,
  ResourceNeeds,
  TemplateLike,
  VariablesOf,
} from "./dependencies/handlers.js";
import { Server, type ServerOptions } from "./server.js";
import { opensKeptSessions } from "../protocol/session-keeper.js";
import type { ClassifiedMessage } from "../protocol/message.js";
import type { CustomNotificationHandler, CustomRequestOptions, RequestHandlerArguments } from "./custom.js";
import type { HandlerArgs, McpServerOptions } from "./mcp-server-options.js";
import { registerResource } from "./registry/register-resource.js";
import { registryCapabilities, registryHandlers } from "./registry/handlers.js";
import { sealingBoundary } from "./sealing-policy.js";
import type { UriTemplate } from "./uri-template.js";
import { resolveSchemaCompiler } from "#schema-compiler";
import { TASK_HOOKS } from "./tasks/options.js";
import { LISTED_TOOL } from "./adapt.js";
import { SUBSCRIPTION_TYPES } from "./subscriptions/filter.js";

export type { McpServerOptions } from "./mcp-server-options.js";

// Lists of an McpServer are the same for every caller (reads may not be); ttl 0 because registrations may change.
const PUBLIC = Object.freeze({ ttlMs: 0, cacheScope: "public" as const });

/**
 * The high-level MCP server: register tools, prompts and resources; the
 * protocol, argument validation and request-state sealing are handled.
 *
 * Any tool, prompt or resource template handler may return an
 * `InputRequiredResult` (build it with {@link inputRequired}) and read the
 * client's answers from `ctx.inputResponses` and its own state, in
 * plaintext, from `ctx.requestState` on the retry. Outgoing state is always
 * sealed and incoming state always verified before any handler runs, under
 * an ephemeral per-process key unless `requestStateSecurity` is given.
 *
 * @example
 * ```ts
 * const mcp = new McpServer({ name: "Briefing", version: "1.0.0" });
 * mcp.prompt("briefing", { description: "Draft a briefing tuned to its audience" }, (_args, ctx) => {
 *   const answer = ctx.inputResponses?.audience;
 *   if (answer === undefined) return inputRequired({ inputRequests: { audience: ASK_AUDIENCE } });
 *   return [{ role: "user", content: { type: "text", text: `Write a briefing for ${answer.content.audience}.` } }];
 * });
 * ```
 */
export class McpServer implements SessionHost {
  /** The low-level server underneath, for `use(...)` and inspection. */
  readonly server: Server;
  private readonly tools: ToolRegistry;
  private readonly prompts: PromptRegistry;
  private readonly resources = new ResourceRegistry();
  private readonly extraCapabilities: ServerCapabilities | undefined;

  /**
   * @param info - the server's name and version; the name is also the default audience of sealed state
   * @param options - sealing policy, instructions, caching defaults, logger
   * @throws TypeError when `requestStateSecurity` is given explicitly but the
   *   server has no distinctive name and no audience is set (a shared key
   *   would then accept tokens minted by any other unnamed service)
   */
  constructor(info: Implementation, options: McpServerOptions = {}) {
    const { requestStateSecurity, audience, capabilities, compileSchema, toJsonSchema, ...serverOptions } = options;
    this.tools = new ToolRegistry(resolveSchemaCompiler(compileSchema), toJsonSchema);
    this.prompts = new PromptRegistry(toJsonSchema);
    if (audience !== undefined && (typeof audience !== "string" || audience.length === 0)) {
      throw new TypeError("McpServer: audience must be a non-empty string");
    }
    this.extraCapabilities = capabilities;
    // One levelled logger for the server and its sealing boundary, so logLevel governs both.
    const logger = createLogger(serverOptions.logger ?? console, serverOptions.logLevel ?? "warn");
    this.server = new Server(info, registryHandlers(this.tools, this.prompts, this.resources), {
      ...serverOptions,
      compileSchema,
      cache: { "tools/list": PUBLIC, "prompts/list": PUBLIC, "resources/list": PUBLIC, "resources/templates/list": PUBLIC, ...serverOptions.cache },
      capabilities: () => this.capabilities(),
      // Registrations may appear at any time, so every type is honoured even before the first one.
      subscriptions: { ...serverOptions.subscriptions, honour: serverOptions.subscriptions?.honour ?? SUBSCRIPTION_TYPES },
      [TASK_HOOKS]: { support: this.tools.taskOf.bind(this.tools), enabled: () => serverOptions.tasks !== undefined || this.tools.hasTaskTools },
      [LISTED_TOOL]: this.tools.listed.bind(this.tools), // what an adapted tools/call offers its revision's adapter
      logger,
      logLevel: "debug",
    } as ServerOptions);
    this.server.use(sealingBoundary(requestStateSecurity, audience, this.server.serverInfo.name, logger));
    // The low-level server's own functions, not wrappers: a message reaches Server.handle without passing through here.
    this.handle = this.server.handle.bind(this.server);
    this.handleClassified = this.server.handleClassified.bind(this.server);
    opensKeptSessions(this); // its sessions are its Server's: a transport may open them on one shared peer
  }

  /**
   * Answers one decoded JSON-RPC message (see `Server.handle`). Never rejects.
   * @param message - one decoded JSON value from a transport
   * @param context - what the transport knows about the caller
   */
  readonly handle: (message: unknown, context?: RequestContext) => Promise<JsonRpcResponse | undefined>;

  /**
   * Answers one message a transport already classified (see `Server.handleClassified`): at once when nothing had
   * to be waited for, else as a promise that never rejects.
   * @param message - the classified message
   * @param context - what the transport knows about the caller
   * @internal
   */
  readonly handleClassified: (message: ClassifiedMessage, context?: RequestContext) => Answered;

  /**
   * Registers a tool.
   *
   * The handler is typed from the schemas: `args` from `config.inputSchema` (a JSON Schema written inline, through
   * `jsonSchema(...)` or `as const`, or a Standard Schema's output type), and the `structuredContent` it returns from
   * `config.outputSchema`; a mismatch is reported at the member at fault. A schema typed only as `object` or
   * `Record<string, unknown>` gives `Record<string, unknown>`. One signature serves both handler forms: `(args, ctx)`,
   * or `(args, needs, ctx)` when `config.needs` declares dependencies.
   *
   * @param name - unique tool name
   * @param config - description and schemas; `inputSchema` is checked before the handler runs: arguments that
   *   fail it get a tool error result (`isError: true`, the message naming the field) the model can correct, not a
   *   protocol error. A Standard Schema (zod 4, valibot, arktype) is validated with its own `~standard.validate` and
   *   advertised as its library's JSON Schema. `x-mcp-header` annotations are checked too (a broken one throws here)
   * @param handler - the tool body; may return an `InputRequiredResult`. With `config.needs` it is
   *   `(args, needs, ctx)`, runs only once every declared dependency is resolved, and may not return one
   * @returns this server, for chaining
   * @throws TypeError on a duplicate name, a non-function handler, a schema that does not compile, a `required`
   *   entry that names no property (the message names it; a literal schema fails to compile instead), a Standard
   *   Schema that cannot be converted to JSON Schema, or a malformed `needs`
   * @example
   * ```ts
   * mcp.tool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
   *   ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }));
   * mcp.tool("sum", {
   *   inputSchema: { type: "object", properties: { values: { type: "array", items: { type: "number" } } }, required: ["values"] },
   *   outputSchema: { type: "object", properties: { total: { type: "number" } }, required: ["total"] },
   * }, ({ values }) => ({ structuredContent: { total: values.reduce((a, b) => a + b, 0) } }));
   * mcp.tool("provision", { needs: (need) => need.add("region", () => elicit({ message: "Which region?", schema: regionForm })) },
   *   (_args, { region }) => ({ content: [{ type: "text", text: region.action === "accept" ? region.content.region : "no region" }] }));
   * ```
   */
  tool<
    const In extends ToolSchema | undefined = undefined,
    const Out extends ToolSchema | undefined = undefined,
    Args extends Record<string, unknown> = ToolArgs<In>,
    R extends object = never,
  >(
    name: string,
    config: ToolConfig<In, Out> & { needs?: ToolNeeds<Args, R> } & RequiredNamesCheck<In, Out>,
    handler: NoInfer<ToolBody<HandlerArgs<In, Args>, R, ToolStructuredContent<Out>>>,
  ): this;
  tool(name: string, config: ToolConfig & { needs?: ToolNeeds<any, any> }, handler: ToolHandler<any, any> | DependentToolHandler<any, any, any>): this {
    // Declared dependencies (runtime/server/dependencies) turn the body into an ordinary handler that asks first.
    const needs = typeof config === "object" && config !== null ? config.needs : undefined;
    const body = needs === undefined ? (handler as ToolHandler) : (withDependencies(name, needs, handler as DependentToolHandler<any, any>) as ToolHandler);
    this.tools.register(name, config, body);
    this.server.sendListChanged("tools");
    return this;
  }

  /**
   * Registers a prompt.
   *
   * @param name - unique prompt name
   * @param config - description and arguments (required ones are checked before the handler runs); a literal
   *   list types `args` (`[{ name: "topic", required: true }]` gives `{ topic: string }`), and a Standard Schema of
   *   the arguments object is validated by its library and gives the handler its output; optionally
   *   `needs`, the input the prompt asks for before it renders (resolvers receive the arguments as `args`)
   * @param handler - returns the messages (or a `GetPromptResult`), or an `InputRequiredResult`. With `config.needs`
   *   it is `(args, needs, ctx)`, runs only once every declared dependency is resolved, and may not return one
   * @returns this server, for chaining
   * @throws TypeError on a duplicate name, malformed arguments or a malformed `needs`
   * @example
   * ```ts
   * mcp.prompt("briefing", { needs: (need) => need.add("audience", () => elicit({ message: "Who is it for?", schema: audienceForm })) },
   *   (_args, { audience }) => [{ role: "user", content: { type: "text", text: `Write a briefing for ${audience.content?.audience ?? "everyone"}.` } }]);
   * ```
   */
  prompt<const List extends PromptArguments | undefined = undefined, Args extends Record<string, unknown> = PromptArgs<List>, R extends object = never>(
    name: string,
    config: PromptConfig<List> & { needs?: PromptNeeds<Args, R> },
    handler: NoInfer<PromptBody<[List] extends [undefined] ? Args : PromptArgs<List>, R>>,
  ): this;
  prompt(name: string, config: PromptConfig & { needs?: NeedsOption<any, any> }, handler: PromptHandler<any> | DependentPromptHandler<any, any>): this {
    const needs = typeof config === "object" && config !== null ? config.needs : undefined;
    const body =
      needs === undefined
        ? (handler as PromptHandler)
        : (withDependencies({ kind: "prompt", name }, needs, handler as DependentPromptHandler<any, any>) as PromptHandler);
    this.prompts.register(name, config, body);
    this.server.sendListChanged("prompts");
    return this;
  }

  /**
   * Registers a static resource (a fixed URI) or a resource template (an
   * RFC 6570 template, given as a {@link UriTemplate} or a string with `{…}`
   * expressions). Only templates receive the round-trip context and may ask
   * for input, by hand or through `needs`; a static resource that returns an
   * `InputRequiredResult` answers `-32603`.
   *
   * @param uriOrTemplate - `"config://app"`, or `"file:///{+path}"` / `new UriTemplate(...)`
   * @param config - name (default: the URI), description, MIME type, completions for template variables; for a
   *   template, optionally `needs`, the input it asks for before it reads (resolvers receive the variables as `args`)
   * @param handler - static: `(uri, ctx)`; template: `(uri, variables, ctx)`, or with `config.needs`
   *   `(uri, variables, needs, ctx)`, run only once every declared dependency is resolved. A template given as a
   *   string literal types `variables` from it (`"report://{quarter}"` gives `{ quarter: string }`)
   * @returns this server, for chaining
   * @throws TypeError on a duplicate URI or template, a malformed template, a non-absolute static URI,
   *   a malformed `needs`, or `needs` on a static resource (use a template)
   * @example
   * ```ts
   * mcp.resource("report://{quarter}", { needs: (need) => need.add("format", () => elicit({ message: "Which format?", schema: formatForm })) },
   *   (uri, { quarter }, { format }) => `Report ${quarter} as ${format.content?.format ?? "text"}`);
   * ```
   */
  resource<U extends string | UriTemplate, R extends object = never, V extends Record<string, unknown> = VariablesOf<U>>(
    uriOrTemplate: U,
    config: ResourceConfig & { needs?: U extends TemplateLike ? ResourceNeeds<R, V> : AStaticResourceTakesNoNeedsUseATemplate },
    handler: NoInfer<ResourceBody<U, R>>,
  ): this;
  resource(
    uriOrTemplate: string | UriTemplate,
    config: ResourceConfig & { needs?: ResourceNeeds<any, any> },
    handler: StaticResourceHandler | TemplateResourceHandler | DependentTemplateResourceHandler<any>,
  ): this {
    registerResource(this.resources, uriOrTemplate, config, handler);
    this.server.sendListChanged("resources");
    return this;
  }

  /** {@inheritDoc Server.setRequestHandler} */
  setRequestHandler<M extends string>(method: M, ...rest: RequestHandlerArguments<M>): this {
    this.server.setRequestHandler(method, ...rest);
    return this;
  }
  /** {@inheritDoc Server.setNotificationHandler} */
  setNotificationHandler(method: string, options: Pick<CustomRequestOptions, "params" | "override">, handler: CustomNotificationHandler): this {
    this.server.setNotificationHandler(method, options, handler);
    return this;
  }

  /** How 2025-era clients are served (the `legacy` option, default `"sessions"`). */
  get legacy(): LegacyMode {
    return this.server.legacy;
  }

  /**
   * Opens a 2025 session (see `Server.openSession`); transports call it, applications rarely need to.
   * @param peer - where the session's unrelated server-to-client messages go
   * @throws Error when `legacy` is not `"sessions"`
   */
  openSession(peer: SessionPeer): ServerSession {
    return this.server.openSession(peer);
  }

  /**
   * Tells clients that the resource at `uri` changed: listener streams whose
   * `resourceSubscriptions` name it (on every instance sharing the
   * broadcaster) and 2025 sessions that subscribed to it get
   * `notifications/resources/updated`.
   *
   * @param uri - the resource's URI, as clients subscribe to it
   * @throws TypeError when `uri` is not a non-empty string
   * @example
   * ```ts
   * await saveConfig(next);
   * mcp.resourceUpdated("config://app");
   * ```
   */
  resourceUpdated(uri: string): void {
    this.server.sendResourceUpdated(uri);
  }

  /** Removes a tool; listeners that opted in hear `notifications/tools/list_changed`. @returns whether one of that name was registered (enabled or not) */
  removeTool(name: string): boolean {
    return this.changed(this.tools.remove(name), "tools");
  }

  /**
   * Enables or disables a tool: a disabled tool is neither listed nor callable. Listeners hear of a change.
   * @returns whether anything changed
   * @throws TypeError when no tool of that name is registered
   */
  setToolEnabled(name: string, enabled: boolean): boolean {
    return this.changed(this.tools.setEnabled(name, enabled), "tools");
  }

  /** Removes a prompt (listeners hear of it). @returns whether one of that name was registered */
  removePrompt(name: string): boolean {
    return this.changed(this.prompts.remove(name), "prompts");
  }

  /**
   * Enables or disables a prompt (listeners hear of a change).
   * @returns whether anything changed
   * @throws TypeError when no prompt of that name is registered
   */
  setPromptEnabled(name: string, enabled: boolean): boolean {
    return this.changed(this.prompts.setEnabled(name, enabled), "prompts");
  }

  /** Removes a static resource (by URI) or a template (by its template string); listeners hear of it. @returns whether one was registered */
  removeResource(uriOrTemplate: string): boolean {
    return this.changed(this.resources.remove(uriOrTemplate), "resources");
  }

  /**
   * Ends every `subscriptions/listen` stream gracefully (see `Server.closeSubscriptions`).
   * @returns how many were closed
   */
  closeSubscriptions(reason?: string, final?: boolean): number {
    return this.server.closeSubscriptions(reason, final);
  }

  /** Closes every listener stream for good and detaches from the broadcaster (see `Server.close`). */
  close(reason?: string): void {
    this.server.close(reason);
  }

  private changed(changed: boolean, list: "tools" | "prompts" | "resources"): boolean {
    if (changed) this.server.sendListChanged(list);
    return changed;
  }

  private capabilities(): ServerCapabilities {
    return { ...registryCapabilities(this.tools, this.prompts, this.resources), ...this.extraCapabilities } as ServerCapabilities;
  }
}
