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
export { inputRequired, isInputRequiredResult, type InputRequiredInit } from "./input-required.js";
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
export { MetaKey, SUPPORTED_PROTOCOL_VERSIONS } from "./meta.js";
export { UriTemplate, type UriTemplateVariables } from "./uri-template.js";
export type { ToolConfig, ToolHandler } from "./registry/tools.js";
export type { PromptConfig, PromptHandler } from "./registry/prompts.js";
export type {
  ResourceConfig,
  ResourceContent,
  StaticResourceContext,
  StaticResourceHandler,
  TemplateResourceHandler,
} from "./registry/resources.js";
export type { Completer } from "./registry/completions.js";
export type { SchemaCheck, SchemaIssue } from "./json-schema.js";
export * from "../state/index.js";
