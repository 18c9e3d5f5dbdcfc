/**
 * The client side's own names: `Client.connect(target, options)`, the
 * automatic multi-round loop, the hand-driven `client.session`, and
 * serialisable pending calls. The package entry `mcp-roundtrip/client`
 * (`runtime/entries/client.ts`) adds the transports a client connects
 * through; this module imports none of them (the `client-without-transport`
 * layer rule).
 *
 * @module
 */
export { Client, type CallOptions, type ClientOptions, type CustomCallOptions, type ResumedResult, type ToolCallOptions } from "./client.js";
export { TaskCancelled, type TaskClientOptions } from "./tasks.js";
export type { TaskHandle } from "./task-handle.js";
export { TASKS_EXTENSION, type CreateTaskResult, type DetailedTask, type Task, type TaskStatus } from "../protocol/tasks-wire.js";
export {
  Subscription,
  type ReconnectingInfo,
  type ReconnectPolicy,
  type SubscribeOptions,
  type SubscriptionEvent,
  type SubscriptionRequest,
} from "./subscription.js";
export type { CallNotificationOptions, LogMessage, ProgressUpdate } from "./call-notifications.js";
export { ClientSession, type AllowInputRequired, type ManualCallOptions, type RequestOptions } from "./session.js";
export { PendingRequest, type CallDescriptor, type PendingRequestJSON, type PendingServer } from "./pending.js";
export { PendingServerMismatch, PendingStateRefused, ToolOutputInvalid, type KeptAnswer } from "./check-errors.js";
export type { ResumeOptions } from "./resume.js";
export type {
  ElicitCallback,
  InputCallbacks,
  InputRequestContext,
  InputRequestHandler,
  InputRequestHandlers,
  ListRootsCallback,
  SampleCallback,
} from "./callbacks.js";
export type { ClientLists } from "./client-lists.js";
export type { ClientMode, ClientRevision, NewestRevision, RevisionOfMode, SchemaMethod, SchemaParams, SchemaResult } from "./revision-types.js";
export type { SpokenInputKind, SpokenInputKinds } from "../protocol/input-kinds.js";
export { InputResponseInvalid } from "./answer-errors.js";
export { InputRequiredRoundsExceeded } from "./rounds-exceeded.js";
export {
  ClientClosed,
  InputRequestFailed,
  InputRequiredNotAllowed,
  InvalidServerResult,
  ProtocolVersionUnsupported,
  RequestTimeout,
  SessionExpired,
} from "./errors.js";

export { ConnectionLost } from "../protocol/connection-lost.js";
export type { TimeoutOptions } from "./deadline.js";
export type { NegotiatedOutcome } from "./outcomes.js";
export type { BackoffPolicy } from "./backoff.js";
export type { ProtocolEra } from "./connection.js";
export type { CommandTarget, ConnectTarget } from "../protocol/targets.js";
export { McpError } from "../protocol/jsonrpc/errors.js";
export {
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSION,
  type ModernProtocolVersion,
  isInputRequired,
  type CallToolResult,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type GetPromptResult,
  type Implementation,
  type InputRequest,
  type InputRequiredMethod,
  type InputRequiredResult,
  type InputResponse,
  type JsonObject,
  type ListRootsRequestParams,
  type ListRootsResult,
  type ReadResourceResult,
} from "./protocol.js";
