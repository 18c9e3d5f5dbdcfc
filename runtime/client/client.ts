import type { Connection, ProtocolEra } from "./connection.js";
import { type LoopSettings, runToCompletion } from "./loop.js";
import type { ServerDescription } from "./negotiate.js";
import { collectAll, paginate, requestPage } from "./pagination.js";
import { InvalidServerResult } from "./errors.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import { PendingRequest, type PendingRequestJSON } from "./pending.js";
import type {
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  Implementation,
  JsonObject,
  ListPromptsResult,
  ListResourceTemplatesResult,
  ListResourcesResult,
  ListToolsResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
} from "./protocol.js";
import { openClient } from "./open.js";
import { ClientSession, type RequestOptions } from "./session.js";
import { isCreateTaskResult, openTaskHandle, taskSettingsOf, type TaskSettings } from "./tasks.js";
import type { TaskHandle } from "./task-handle.js";
import { Subscription, type SubscribeOptions, type SubscriptionRequest } from "./subscription.js";
import type { CallOptions, ClientOptions, CustomCallOptions, ToolCallOptions } from "./options.js";
import type { ConnectTarget } from "../protocol/targets.js";

export type { CallOptions, ClientOptions, CustomCallOptions, ToolCallOptions } from "./options.js";

/**
 * An MCP client. `callTool`, `getPrompt` and `readResource` run the
 * multi-round loop for you: each `InputRequiredResult` is answered by the
 * callbacks given to {@link Client.connect} and the call retried until it
 * completes. `client.session` gives the one-request-at-a-time layer for
 * driving rounds by hand.
 *
 * @example
 * ```ts
 * const client = await Client.connect(server, {
 *   onElicit: async (params) => ({ action: "accept", content: { region: "eu-west-1" } }),
 * });
 * const result = await client.callTool("provision", { name: "orders" });
 * ```
 */
export class Client {
  /** One request per call, no automatic rounds; see {@link ClientSession}. */
  readonly session: ClientSession;
  readonly #connection: Connection;
  readonly #server: ServerDescription;
  readonly #loop: LoopSettings;
  readonly #tasks: TaskSettings;

  private constructor(connection: Connection, server: ServerDescription, loop: LoopSettings, tasks: TaskSettings | undefined) {
    this.#connection = connection;
    this.session = new ClientSession(connection);
    this.#server = server;
    this.#loop = loop;
    // A server that sends a task unasked is still followed, with the default polling bounds.
    this.#tasks = tasks ?? taskSettingsOf(true)!;
  }

  /**
   * Connects to `target` and agrees on a protocol version.
   *
   * @param target a `Server`/`McpServer` (or any `MessageHandler`) in this process, or a ready `ClientTransport`.
   * @param options callbacks, identity, loop limits, version mode.
   * @throws TypeError / RangeError for a bad target or option.
   * @throws ProtocolVersionUnsupported when the server shares no version with the client.
   * @throws HttpTransportError when an HTTP server refuses the client (401/403: never taken for an older server) or fails.
   */
  static async connect(target: ConnectTarget, options: ClientOptions = {}): Promise<Client> {
    const opened = await openClient(target, options);
    return new Client(opened.connection, opened.server, opened.loop, opened.tasks);
  }

  /** The protocol version in use: `"2026-07-28"`, or the handshake-era version agreed with an older server. */
  get protocolVersion(): string {
    return this.#connection.protocolVersion;
  }

  /**
   * What the connection settled on, as plain JSON: store it and pass it
   * back as the `negotiated` option to skip the probe next time.
   *
   * @example
   * ```ts
   * await settings.save("mcp.negotiated", JSON.stringify(client.negotiated));
   * // later, even in another process:
   * const next = await Client.connect(url, { negotiated: JSON.parse(await settings.load("mcp.negotiated")) });
   * ```
   */
  get negotiated(): NegotiatedOutcome {
    return { protocolVersion: this.#connection.protocolVersion };
  }

  /** `"modern"` (per-request `_meta`, multi-round results) or `"legacy"` (2025 handshake, back-channel). */
  get era(): ProtocolEra {
    return this.#connection.era;
  }

  /** The server's self-reported name and version, if it gave them. */
  get serverInfo(): Implementation | undefined {
    return this.#server.serverInfo;
  }

  /** What the server said it supports. */
  get serverCapabilities(): ServerCapabilities {
    return this.#server.capabilities;
  }

  /** The server's guidance for models, if any. */
  get instructions(): string | undefined {
    return this.#server.instructions;
  }

  /**
   * Calls a tool and returns its final `CallToolResult`, answering every
   * intermediate round with the client's callbacks. When the server runs
   * the call as a task, follows it to its result the same way (see the
   * `tasks` option), or with `{ task: "handle" }` returns its handle.
   *
   * @throws InputRequiredRoundsExceeded, InputRequestFailed, InvalidServerResult, McpError (a failed task's
   *   error too), TaskCancelled, or the signal's reason (a followed task is then cancelled).
   */
  async callTool(name: string, args: JsonObject | undefined, options: ToolCallOptions & { task: "handle" }): Promise<CallToolResult | TaskHandle>;
  async callTool(name: string, args?: JsonObject, options?: ToolCallOptions): Promise<CallToolResult>;
  async callTool(name: string, args?: JsonObject, options?: ToolCallOptions): Promise<CallToolResult | TaskHandle> {
    checkTarget("callTool", name);
    if (options?.task !== undefined && options.task !== "follow" && options.task !== "handle") {
      throw new TypeError(`callTool: task must be "follow" or "handle", got ${JSON.stringify(options.task)}.`);
    }
    const call = { method: "tools/call" as const, name, ...(args === undefined ? {} : { arguments: args }) };
    const result = await this.#run(call, options);
    if (!isCreateTaskResult(result)) return result as unknown as CallToolResult;
    const handle = await this.#taskFrom(String(result.taskId), result);
    return options?.task === "handle" ? handle : handle.result({ signal: options?.signal });
  }

  /**
   * A handle on a task of this server, e.g. one whose id was stored before a
   * restart: poll it, answer it, cancel it, or wait for its result.
   *
   * @param taskId - the id from a `CreateTaskResult` (`handle.taskId`)
   * @throws TypeError for an empty id
   */
  async task(taskId: string): Promise<TaskHandle> {
    if (typeof taskId !== "string" || taskId === "") throw new TypeError(`client.task needs the taskId a CreateTaskResult carried, got ${JSON.stringify(taskId)}.`);
    return this.#taskFrom(taskId, undefined);
  }

  #taskFrom(taskId: string, created: JsonObject | undefined): Promise<TaskHandle> {
    const settings = { answerers: this.#loop.answerers, maxRounds: this.#loop.maxRounds, tasks: this.#tasks };
    return openTaskHandle(this.session, settings, taskId, created as never);
  }

  /** Gets a prompt, running the rounds like {@link Client.callTool}. */
  async getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult> {
    checkTarget("getPrompt", name);
    const call = { method: "prompts/get" as const, name, ...(args === undefined ? {} : { arguments: args }) };
    return (await this.#run(call, options)) as unknown as GetPromptResult;
  }

  /** Reads a resource, running the rounds like {@link Client.callTool}. */
  async readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    checkTarget("readResource", uri);
    return (await this.#run({ method: "resources/read", uri }, options)) as unknown as ReadResourceResult;
  }

  /**
   * Finishes a pending call (perhaps started by another process): answers
   * its `inputRequests` with this client's callbacks, then continues the loop
   * to the final result. Rounds count on from `pending.round`.
   *
   * @param pending a {@link PendingRequest} or its JSON form (string or object).
   */
  async resume(pending: PendingRequest | PendingRequestJSON | string, options?: CallOptions): Promise<JsonObject> {
    const call = pending instanceof PendingRequest ? pending : PendingRequest.resume(pending);
    const result = { resultType: "input_required" as const, inputRequests: call.inputRequests, requestState: call.requestState };
    if (result.inputRequests === undefined) delete result.inputRequests;
    if (result.requestState === undefined) delete result.requestState;
    return this.#run(call.call, options, { result, round: call.round });
  }

  async #run(call: Parameters<typeof runToCompletion>[2], options: CallOptions | undefined, start?: Parameters<typeof runToCompletion>[5]): Promise<JsonObject> {
    if (options?.onProgress === undefined && options?.onLog === undefined) {
      return runToCompletion(this.session, this.#loop, call, options?.signal, options?.meta, start);
    }
    // Its own chunk: calls without per-call callbacks do not load it.
    const { wireCall } = await import("./call-notifications.js");
    const wiring = wireCall(options, options.meta);
    return runToCompletion(this.session, this.#loop, call, options.signal, wiring.meta, start, wiring.onNotification);
  }

  /**
   * Asks the server again what it supports (`server/discover`).
   *
   * @throws Error on a connection to a 2025-era server, which has no such method (read `serverCapabilities`).
   */
  async discover(options?: RequestOptions): Promise<JsonObject> {
    if (this.#connection.era === "legacy") {
      throw new Error(
        `server/discover is a 2026-07-28 method; this server speaks ${this.protocolVersion}. ` +
          `What it said at initialize is in client.serverCapabilities, serverInfo and instructions.`,
      );
    }
    return this.session.request("server/discover", {}, options);
  }

  /**
   * Opens a `subscriptions/listen` stream and keeps it open: iterate the
   * returned {@link Subscription} for typed events (breaking out of the loop
   * ends the stream), or pass callbacks such as `onToolsChanged`. It
   * reconnects after a drop, with backoff, and says so (`onReconnecting`,
   * then an `acknowledged` event with `reconnects > 0`).
   *
   * @param filter - which notifications to receive
   * @param options - callbacks, reconnection policy, a `signal` that ends it
   * @throws Error when the server speaks a 2025 version (which has no `subscriptions/listen`)
   * @example
   * ```ts
   * for await (const event of client.subscribe({ toolsListChanged: true, resourceSubscriptions: ["config://app"] })) {
   *   if (event.type === "toolsListChanged") tools = await client.listAllTools();
   *   if (event.type === "resourceUpdated") config = await client.readResource(event.uri);
   * }
   * ```
   */
  subscribe(filter: SubscriptionRequest, options?: SubscribeOptions): Subscription {
    if (this.#connection.era === "legacy") {
      throw new Error(`subscribe: a ${this.protocolVersion} server has no subscriptions/listen; use onNotification of Client.connect`);
    }
    return new Subscription(this.#connection, filter, options);
  }

  /**
   * Calls `callback` whenever the server's tool list changes (a
   * {@link Client.subscribe} with `toolsListChanged` alone).
   * @returns the subscription; `close()` it to stop
   */
  onToolsChanged(callback: () => void, options?: Omit<SubscribeOptions, "onToolsChanged">): Subscription {
    if (typeof callback !== "function") throw new TypeError("onToolsChanged needs a function");
    return this.subscribe({ toolsListChanged: true }, { ...options, onToolsChanged: callback });
  }

  /** One page of `tools/list`. */
  listTools(cursor?: string, options?: RequestOptions): Promise<ListToolsResult> {
    return requestPage(this.session, "tools/list", cursor, options) as unknown as Promise<ListToolsResult>;
  }
  /** One page of `prompts/list`. */
  listPrompts(cursor?: string, options?: RequestOptions): Promise<ListPromptsResult> {
    return requestPage(this.session, "prompts/list", cursor, options) as unknown as Promise<ListPromptsResult>;
  }
  /** One page of `resources/list`. */
  listResources(cursor?: string, options?: RequestOptions): Promise<ListResourcesResult> {
    return requestPage(this.session, "resources/list", cursor, options) as unknown as Promise<ListResourcesResult>;
  }
  /** One page of `resources/templates/list`. */
  listResourceTemplates(cursor?: string, options?: RequestOptions): Promise<ListResourceTemplatesResult> {
    return requestPage(this.session, "resources/templates/list", cursor, options) as unknown as Promise<ListResourceTemplatesResult>;
  }

  /** Every tool, following `nextCursor` across pages. */
  listAllTools(options?: RequestOptions): Promise<Tool[]> {
    return collectAll<Tool>(this.session, "tools/list", "tools", options);
  }
  /** Every prompt, across pages. */
  listAllPrompts(options?: RequestOptions): Promise<Prompt[]> {
    return collectAll<Prompt>(this.session, "prompts/list", "prompts", options);
  }
  /** Every resource, across pages. */
  listAllResources(options?: RequestOptions): Promise<Resource[]> {
    return collectAll<Resource>(this.session, "resources/list", "resources", options);
  }
  /** Every resource template, across pages. */
  listAllResourceTemplates(options?: RequestOptions): Promise<ResourceTemplate[]> {
    return collectAll<ResourceTemplate>(this.session, "resources/templates/list", "resourceTemplates", options);
  }

  /**
   * Iterates the items of a paginated list method page by page, following
   * `nextCursor` until the server stops giving one.
   *
   * @throws Error when the server repeats a cursor (it would loop forever).
   */
  paginate<T = JsonObject>(method: string, itemsKey: string, options?: RequestOptions): AsyncGenerator<T, void, undefined> {
    return paginate<T>(this.session, method, itemsKey, options);
  }

  /** Asks for completions of a prompt or resource-template argument (`completion/complete`). */
  complete(params: JsonObject, options?: RequestOptions): Promise<CompleteResult> {
    return this.session.request("completion/complete", params, options) as unknown as Promise<CompleteResult>;
  }

  /**
   * Sends a request for a method outside the protocol schema (an
   * extension's, one a server serves with `setRequestHandler`) and resolves
   * with its result, running the rounds like {@link Client.callTool} when
   * the server answers `input_required`.
   *
   * @param method - the method, e.g. `"widgets/list"`
   * @param params - its params (the envelope's `_meta` is added for you)
   * @param options - a `result` schema to check the answer against, a signal, extra `_meta`
   * @throws McpError (a `-32601` when the server does not serve it), InvalidServerResult when the result
   *   does not fit `options.result`, and what {@link Client.callTool} throws for the rounds
   * @example
   * ```ts
   * const { widgets } = await client.request("widgets/list", { cursor: "w10" });
   * ```
   */
  async request(method: string, params?: JsonObject, options?: CustomCallOptions): Promise<JsonObject> {
    const { customRequest } = await import("./custom-request.js");
    return customRequest(
      method,
      params,
      options,
      (call) => this.#run(call, options),
      (...args) => new InvalidServerResult(...args),
    );
  }

  /** Sends a notification the protocol schema does not define (the server's `setNotificationHandler` gets it). */
  notify(method: string, params?: JsonObject): Promise<void> {
    return this.#connection.notify(method, params);
  }

  /** Closes the transport (ending a 2025 HTTP session with DELETE). Later calls throw `ClientClosed`. */
  close(): Promise<void> {
    return this.#connection.close();
  }

  /** `await using client = await Client.connect(…)` closes it at scope end. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function checkTarget(what: string, value: unknown): void {
  if (typeof value !== "string" || value === "") {
    throw new TypeError(`${what} needs a non-empty string ${what === "readResource" ? "URI" : "name"}, got ${JSON.stringify(value)}.`);
  }
}
