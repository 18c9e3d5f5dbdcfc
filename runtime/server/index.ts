/**
 * The server half of mcp-roundtrip (`mcp-roundtrip/server`): the low-level
 * {@link Server}, the high-level {@link McpServer}, the `InputRequiredResult`
 * builder and the request-state boundary. Request-state security
 * (`RequestStateSecurity`, `InvalidRequestState`, `principalOf`) is
 * re-exported here so a server needs one import.
 *
 * @packageDocumentation
 */
export { Server, type ServerOptions } from "./server.js";
export { McpServer, type McpServerOptions } from "./mcp-server.js";
export type { SubscriptionOptions } from "./options.js";
export {
  InProcessBroadcaster,
  isSubscriptionEvent,
  type Broadcaster,
  type ListKind,
  type SubscriptionEvent,
} from "./subscriptions/broadcaster.js";
export { SUBSCRIPTION_TYPES, type SubscriptionType } from "./subscriptions/filter.js";
export { DEFAULT_MAX_LISTENERS, SUBSCRIPTION_ID_META, TOO_MANY_LISTENERS } from "./subscriptions/streams.js";
export { inputRequired, isInputRequired, type Frozen, type InputRequestInit, type InputRequiredInit } from "./input-required.js";
export type { ServedInputKind, ServedInputKinds } from "../protocol/input-kinds.js";
export { requireScopes } from "./require-scopes.js";
export {
  requestStateBoundary,
  type RequestStateBoundaryOptions,
  type RequestStateSealer,
} from "./state-boundary.js";
export type { ServerRequestContext } from "./context.js";
export type {
  CacheableMethod,
  CacheHint,
  HandlerResult,
  MaybePromise,
  MiddlewareRequest,
  ServerHandlers,
  ServerLogger,
  ServerMiddleware,
} from "./types.js";
export { createLogger, escapeLogText, type LevelledLogger, type LogFields, type Logger, type LogLevel } from "../protocol/logging.js";
export { MetaKey, SUPPORTED_PROTOCOL_VERSIONS } from "./meta.js";
export { UriTemplate, type UriTemplateVariables } from "./uri-template.js";
export type { ToolConfig, ToolHandler } from "./registry/tools.js";
// Typed tools: the one type-level JSON Schema reader, and what a tool's schemas make of its handler.
export type { FromSchema, JsonSchemaObject } from "./schema/types/infer.js";
export { jsonSchema } from "./schema/literal.js";
export type { SchemaFix } from "./schema/types/required-names.js";
export type { StructuredToolResult, ToolArgs, ToolErrorResult, ToolResult, ToolSchema, ToolStructuredContent } from "./schema/types/tool-types.js";
export type { StandardSchema, StandardSchemaConverter } from "./schema/standard.js";
export type { PromptArgs, PromptArguments, PromptConfig, PromptHandler } from "./registry/prompts.js";
export type { TemplateVariables } from "./schema/types/template-variables.js";
export type {
  ResourceConfig,
  ResourceContent,
  StaticResourceContext,
  StaticResourceHandler,
  TemplateResourceHandler,
} from "./registry/resources.js";
export type { Completer } from "./registry/completions.js";
export type { CustomNotificationHandler, CustomRequestHandler, CustomRequestOptions, MethodSchema, RequestHandlerArguments } from "./custom.js";
export type { SchemaMethod, SchemaMethodOptions, SchemaMethodParams, SchemaMethodResult, SchemaRequestHandler } from "./schema-methods.js";
export type { SchemaCheck, SchemaCompiler, SchemaCompilerChoice, SchemaIssue, SchemaValidator } from "./schema/schema-check.js";
// The everyday names of request-state security, so a server needs one import: the classes a server
// constructs, the errors a codec or a replay store throws, principalOf, and the types they name.
// The key tooling (keyIdOf, decodeKeyEntry, DEFAULT_KEYS_ENV, MIN_SECRET_BYTES) and the parts of the
// fixed rejection are in mcp-roundtrip/state only.
export {
  InvalidRequestState,
  RequestStateUnavailable,
  MemoryReplayStore,
  principalOf,
  RequestStateSecurity,
  type CryptoBackendChoice,
  type MemoryReplayStoreOptions,
  type MintInput,
  type ReplayLease,
  type ReplayQuotaExceeded,
  type ReplayStore,
  type RequestStateUse,
  type RequestBinding,
  type RequestStateCodec,
  type RequestStateKeySource,
  type RequestStateLogger,
  type RequestStateRejection,
  type RequestStateRejectionReason,
  type RequestStateRingInfo,
  type RequestStateSecret,
  type RequestStateSecurityOptions,
} from "../state/index.js";
// Declared dependencies: a tool's, prompt's or resource template's needs are asked for, remembered and resolved by the SDK.
export {
  ask,
  elicit,
  elicitUrl,
  evaluateNeeds,
  listRoots,
  needs,
  Needs,
  runWithDependencies,
  sample,
  type AskAnswer,
  type AskParams,
  type AskQuestion,
  type DependencyRound,
  type DependentPromptHandler,
  type DependentTemplateResourceHandler,
  type AStaticResourceTakesNoNeedsUseATemplate,
  type DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired,
  type DependentToolHandler,
  type ElicitContent,
  type BooleanFieldSchema,
  type ElicitFieldSchema,
  type ElicitFormContent,
  type ElicitQuestion,
  type ElicitSchema,
  type ElicitUrlQuestion,
  type Elicitation,
  type Evaluation,
  type ListRootsQuestion,
  type MultiSelectFieldSchema,
  type NumberFieldSchema,
  type NeedsOption,
  type NeedsValues,
  type PromptBody,
  type PromptNeeds,
  type Question,
  type ResourceBody,
  type ResourceNeeds,
  type ResolvedValue,
  type Resolver,
  type SampleParams,
  type SampleQuestion,
  type SingleSelectFieldSchema,
  type StringFieldSchema,
  type TemplateLike,
  type TitledSingleSelectFieldSchema,
  type ToolBody,
  type ToolNeeds,
  type UrlElicitation,
  type VariablesOf,
} from "./dependencies/index.js";
// The tasks extension: tools that run as tasks, polled with tasks/get.
export {
  isTerminalStatus,
  MemoryTaskStore,
  runAsTask,
  TASKS_EXTENSION,
  TaskStoreFull,
  type CreateTaskResult,
  type DetailedTask,
  type MemoryTaskStoreOptions,
  type Task,
  type TaskLookup,
  type TaskRecord,
  type TaskStatus,
  type TaskStatusListener,
  type TaskStatusNotification,
  type TaskStore,
  type TasksOptions,
  type TaskSupport,
  type TaskEscalation,
  type TaskWork,
} from "./tasks/index.js";
// Types the public signatures above name: the session contract transports drive and the 2025 session options.
export type { LegacyMode } from "../protocol/context.js";
export type { ServerSession, SessionHost, SessionPeer } from "../protocol/contracts.js";
export type { LegacySessionOptions } from "./legacy/host.js";
