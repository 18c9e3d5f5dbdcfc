import type { Connection, ProtocolEra } from "./connection.js";
import { type LoopSettings, runToCompletion } from "./loop.js";
import type { ServerDescription } from "./negotiate.js";
import { InvalidServerResult } from "./errors.js";
import type { NegotiatedOutcome } from "./outcomes.js";
import { PendingRequest, type PendingRequestJSON } from "./pending.js";
import type { Implementation, InputRequiredMethod, JsonObject, ServerCapabilities } from "./protocol.js";
import { openClient } from "./open.js";
import { ClientSession, type RequestOptions } from "./session.js";
import { ClientLists } from "./client-lists.js";
import type { ClientMode, ClientRevision, HelperResult, NewestRevision, RevisionOfMode, SchemaMethod, SchemaRequestArgs, SchemaResult } from "./revision-types.js";
import { DEFAULT_TASK_SETTINGS, isCreateTaskResult, openTaskHandle, type TaskSettings } from "./tasks.js";
import type { TaskHandle } from "./task-handle.js";
import { Subscription, type SubscribeOptions, type SubscriptionRequest } from "./subscription.js";
import type { CallOptions, ClientOptions, CustomCallOptions, ToolCallOptions } from "./options.js";
import type { ConnectTarget } from "../protocol/targets.js";
import type { ToolOutputState } from "./tool-output.js";
import { CHECK_ERRORS, checkedOutput, checkTarget } from "./call-checks.js";
import type { ResumeOptions } from "./resume.js";

export type { CallOptions, ClientOptions, CustomCallOptions, ToolCallOptions } from "./options.js";

/**
 * An MCP client. `callTool`, `getPrompt` and `readResource` run the
 * multi-round loop for you: each `InputRequiredResult` is answered by the
 * callbacks given to {@link Client.connect} and the call retried until it
 * completes. `client.session` gives the one-request-at-a-time layer for
 * driving rounds by hand.
 *
 * `Revision` is the protocol revision whose types its results have: the one
 * pinned with `mode`, else the newest this package serves (a 2025 session's
 * results keep those types).
 *
 * @example
 * ```ts
 * const client = await Client.connect(server, {
 *   onElicit: async (params) => ({ action: "accept", content: { region: "eu-west-1" } }),
 * });
 * const result = await client.callTool("provision", { name: "orders" });
 * ```
 */
export class Client<Revision extends ClientRevision = NewestRevision> extends ClientLists<Revision> {
  readonly #connection: Connection;
  readonly #server: ServerDescription;
  readonly #loop: LoopSettings;
  readonly #tasks: TaskSettings;
  readonly #outputs: ToolOutputState;

  private constructor(connection: Connection, server: ServerDescription, loop: LoopSettings, tasks: TaskSettings | undefined, outputs: ToolOutputState) {
    super(new ClientSession(connection, server));
    this.#connection = connection;
    this.#server = server;
    this.#loop = loop;
    this.#outputs = outputs;
    // A server that sends a task unasked is still followed, with the default polling bounds.
    this.#tasks = tasks ?? DEFAULT_TASK_SETTINGS;
  }

  /**
   * Connects to `target` and agrees on a protocol version.
   *
   * @param target a `Server`/`McpServer` (or any `MessageHandler`) in this process, or a ready `ClientTransport`.
   * @param options callbacks, identity, loop limits, version mode (a pinned `mode` types the client's results
   *   by that revision: `Client<"2026-07-28">`).
   * @throws TypeError / RangeError for a bad target or option.
   * @throws ProtocolVersionUnsupported when the server shares no version with the client.
   * @throws HttpTransportError when an HTTP server refuses the client (401/403: never taken for an older server) or fails.
   * @throws RequestTimeout when the server does not answer a request of the handshake within `timeoutMs` (default 60 s).
   */
  static async connect<Mode extends ClientMode = "auto">(
    target: ConnectTarget,
    options: ClientOptions & { mode?: Mode } = {},
  ): Promise<Client<RevisionOfMode<Mode>>> {
    const opened = await openClient(target, options);
    return new Client(opened.connection, opened.server, opened.loop, opened.tasks, opened.outputs);
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
   * A result's `structuredContent` is checked against the tool's
   * `outputSchema` (see `checkToolOutputs`; `{ checkOutput: false }` skips it).
   *
   * @throws InputRequiredRoundsExceeded, InputRequestFailed, InvalidServerResult, McpError (a failed task's
   *   error too), TaskCancelled, or the signal's reason (a followed task is then cancelled).
   * @throws ToolOutputInvalid when `structuredContent` does not fit the tool's `outputSchema`.
   */
  async callTool(
    name: string,
    args: JsonObject | undefined,
    options: ToolCallOptions & { task: "handle" },
  ): Promise<HelperResult<Revision, "tools/call"> | TaskHandle>;
  async callTool(name: string, args?: JsonObject, options?: ToolCallOptions): Promise<HelperResult<Revision, "tools/call">>;
  async callTool(name: string, args?: JsonObject, options?: ToolCallOptions): Promise<unknown> {
    checkTarget("callTool", name);
    if (options?.task !== undefined && options.task !== "follow" && options.task !== "handle") {
      throw new TypeError(`callTool: task must be "follow" or "handle", got ${JSON.stringify(options.task)}.`);
    }
    const call = { method: "tools/call" as const, name, ...(args === undefined ? {} : { arguments: args }) };
    const result = await this.#run(call, options);
    if (!isCreateTaskResult(result)) return this.#checkOutput(name, result, options);
    const handle = await this.#taskFrom(String(result.taskId), result);
    return options?.task === "handle" ? handle : this.#checkOutput(name, (await handle.result({ signal: options?.signal })) as unknown as JsonObject, options);
  }

  /** A tool's complete result, checked against its `outputSchema` unless the call or the client opted out (./call-checks.ts). */
  #checkOutput(name: string, result: JsonObject, options: ToolCallOptions | undefined): Promise<JsonObject> {
    return checkedOutput(this.#outputs, this.session, name, result, options);
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
  async getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<HelperResult<Revision, "prompts/get">> {
    checkTarget("getPrompt", name);
    const call = { method: "prompts/get" as const, name, ...(args === undefined ? {} : { arguments: args }) };
    return (await this.#run(call, options)) as never;
  }

  /** Reads a resource, running the rounds like {@link Client.callTool}. */
  async readResource(uri: string, options?: CallOptions): Promise<HelperResult<Revision, "resources/read">> {
    checkTarget("readResource", uri);
    return (await this.#run({ method: "resources/read", uri }, options)) as never;
  }

  /**
   * Finishes a pending call (perhaps started by another process): checks
   * that it was parked with this server (its endpoint and name) in a
   * revision the server still speaks, makes sure the server still accepts
   * its `requestState` (see `checkState`), answers its `inputRequests` with
   * this client's callbacks, then continues the loop to the final result,
   * typed by the call's method (`method` names it for a stored string).
   * Rounds count on from `pending.round`.
   *
   * @param pending a {@link PendingRequest} or its JSON form (string or object).
   * @param options a signal, extra `_meta`, `checkState`, `checkOutput`, and `method` (checked against the record).
   * @throws PendingServerMismatch when the call belongs to another server, or to a revision this one no longer speaks.
   * @throws PendingStateRefused when the server no longer accepts the call's `requestState` (it carries any answers given).
   * @throws TypeError for a record that is not a pending call, or of another method than `options.method`.
   */
  async resume<Method extends string = InputRequiredMethod | (string & {})>(
    pending: PendingRequest<Method> | PendingRequestJSON<Method> | string,
    options?: ResumeOptions & { method?: Method; checkOutput?: boolean },
  ): Promise<ResumedResult<Revision, Method>> {
    const call = (pending instanceof PendingRequest ? pending : PendingRequest.resume(pending)) as PendingRequest;
    // Its own chunk (./resume.ts): a client that never resumes does not carry it.
    const { resumeParked } = await import("./resume.js");
    return resumeParked(
      { session: this.session, loop: this.#loop, server: this.#server, outputs: this.#outputs, run: runToCompletion, errors: CHECK_ERRORS },
      call,
      options,
    ) as never;
  }

  async #run(call: Parameters<typeof runToCompletion>[2], options: CallOptions | undefined, start?: Parameters<typeof runToCompletion>[5]): Promise<JsonObject> {
    if (options?.onProgress === undefined && options?.onLog === undefined) {
      return runToCompletion(this.session, this.#loop, call, options?.signal, options?.meta, start, undefined, options);
    }
    // Its own chunk: calls without per-call callbacks do not load it.
    const { wireCall } = await import("./call-notifications.js");
    const wiring = wireCall(options, options.meta);
    return runToCompletion(this.session, this.#loop, call, options.signal, wiring.meta, start, wiring.onNotification, options);
  }

  /**
   * Asks the server again what it supports (`server/discover`).
   *
   * @throws Error on a connection to a 2025-era server, which has no such method (read `serverCapabilities`).
   */
  async discover(options?: RequestOptions): Promise<HelperResult<Revision, "server/discover">> {
    if (this.#connection.era === "legacy") {
      throw new Error(
        `server/discover is a 2026-07-28 method; this server speaks ${this.protocolVersion}. ` +
          `What it said at initialize is in client.serverCapabilities, serverInfo and instructions.`,
      );
    }
    return this.session.request("server/discover", {}, options) as Promise<never>;
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
    // The tools changed: callTool's output check lists them again (./tool-output.ts).
    const onToolsChanged = () => {
      this.#outputs.catalog = undefined;
      options?.onToolsChanged?.();
    };
    return new Subscription(this.#connection, filter, { ...options, onToolsChanged });
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
  async request<Method extends string>(
    method: Method extends SchemaMethod<Revision> ? never : Method,
    params?: JsonObject,
    options?: CustomCallOptions,
  ): Promise<JsonObject>;
  // Second, so that a schema method's misfit params are reported against its own params (the last overload's error).
  /**
   * Sends a request the protocol schema defines, typed by the revision the
   * client speaks (its params without the envelope, its complete result),
   * and resolves with its result, running the rounds like
   * {@link Client.callTool} when the server answers `input_required`.
   *
   * @param method - a method of the revision's schema, e.g. `"tools/list"`
   * @param args - its params (`_meta` optional: the envelope is added for you), then a signal or extra `_meta`
   * @throws McpError, and what {@link Client.callTool} throws for the rounds
   * @example
   * ```ts
   * const { tools } = await client.request("tools/list", { cursor: "t10" });
   * ```
   */
  async request<Method extends SchemaMethod<Revision>>(method: Method, ...args: SchemaRequestArgs<Revision, Method>): Promise<SchemaResult<Revision, Method>>;
  async request(method: string, params?: JsonObject, options?: CustomCallOptions): Promise<unknown> {
    const { customRequest } = await import("./custom-request.js");
    return customRequest(
      method,
      params,
      options,
      (call, callOptions) => this.#run(call, callOptions),
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

/** What `client.resume` resolves with: the method's complete result, or a custom method's object. */
export type ResumedResult<Revision extends ClientRevision, Method extends string> = Method extends InputRequiredMethod ? HelperResult<Revision, Method> : JsonObject;
