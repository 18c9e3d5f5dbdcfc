/**
 * The slice of the protocol's shapes the client reads. Kept structural and
 * loose on purpose: the client passes results through to the caller as the
 * server sent them, and only looks at the few fields that steer the loop.
 *
 * @packageDocumentation
 */

/** The modern protocol revision this client speaks natively. */
export const MODERN_PROTOCOL_VERSION = "2026-07-28";

/** Handshake-era revisions this client can fall back to (newest first). */
export const LEGACY_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26"] as const;

/** Reserved `_meta` keys of the per-request envelope (2026-07-28, basic/index). */
export const MetaKey = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  serverInfo: "io.modelcontextprotocol/serverInfo",
} as const;

/** A JSON object as the protocol carries it. */
export type JsonObject = Record<string, unknown>;

/** Name and version of a client or server implementation. */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  [key: string]: unknown;
}

/** Capabilities a client declares on each request. */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject; [key: string]: unknown };
  sampling?: { context?: JsonObject; tools?: JsonObject; [key: string]: unknown };
  roots?: { listChanged?: boolean; [key: string]: unknown };
  experimental?: Record<string, JsonObject>;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

/** Capabilities a server reports from `server/discover` (or `initialize`). */
export type ServerCapabilities = JsonObject;

/** Parameters of an `elicitation/create` input request. */
export interface ElicitRequestParams {
  mode?: "form" | "url";
  message: string;
  requestedSchema?: JsonObject;
  url?: string;
  elicitationId?: string;
  [key: string]: unknown;
}

/** The user's answer to an elicitation. */
export interface ElicitResult {
  action: "accept" | "decline" | "cancel";
  content?: Record<string, string | number | boolean | string[]>;
  [key: string]: unknown;
}

/** Parameters of a `sampling/createMessage` input request. */
export interface CreateMessageRequestParams {
  messages: JsonObject[];
  maxTokens: number;
  [key: string]: unknown;
}

/** A sampled completion. */
export interface CreateMessageResult {
  role: "assistant" | "user";
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

/** Parameters of a `roots/list` input request (usually empty). */
export interface ListRootsRequestParams {
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** The client's roots. */
export interface ListRootsResult {
  roots: { uri: string; name?: string; [key: string]: unknown }[];
  [key: string]: unknown;
}

/** One entry of `inputRequests`: what the server needs from the client. */
export type InputRequest =
  | { method: "elicitation/create"; params: ElicitRequestParams }
  | { method: "sampling/createMessage"; params: CreateMessageRequestParams }
  | { method: "roots/list"; params?: ListRootsRequestParams };

/** One entry of `inputResponses`: the client's answer under the request's key. */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/** A result asking the client for input before the request can complete. */
export interface InputRequiredResult {
  resultType: "input_required";
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** Fields every completed result may carry. */
export interface CompleteResult {
  resultType?: "complete";
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** The result of `tools/call`. */
export interface CallToolResult extends CompleteResult {
  content: JsonObject[];
  structuredContent?: JsonObject;
  isError?: boolean;
}

/** The result of `prompts/get`. */
export interface GetPromptResult extends CompleteResult {
  description?: string;
  messages: JsonObject[];
}

/** The result of `resources/read`. */
export interface ReadResourceResult extends CompleteResult {
  contents: JsonObject[];
}

/** The result of `server/discover`. */
export interface DiscoverResult extends CompleteResult {
  supportedVersions: string[];
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** A listed tool. */
export interface Tool {
  name: string;
  description?: string;
  inputSchema: JsonObject;
  [key: string]: unknown;
}

/** A listed prompt. */
export interface Prompt {
  name: string;
  description?: string;
  arguments?: JsonObject[];
  [key: string]: unknown;
}

/** A listed resource. */
export interface Resource {
  uri: string;
  name: string;
  [key: string]: unknown;
}

/** A listed resource template. */
export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  [key: string]: unknown;
}

/** One page of a paginated list. */
export interface Page extends CompleteResult {
  nextCursor?: string;
}

/** `tools/list` page. */
export interface ListToolsResult extends Page {
  tools: Tool[];
}
/** `prompts/list` page. */
export interface ListPromptsResult extends Page {
  prompts: Prompt[];
}
/** `resources/list` page. */
export interface ListResourcesResult extends Page {
  resources: Resource[];
}
/** `resources/templates/list` page. */
export interface ListResourceTemplatesResult extends Page {
  resourceTemplates: ResourceTemplate[];
}

/** The result of `completion/complete`. */
export interface CompleteCompletionResult extends CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

/** The methods whose answer may be an {@link InputRequiredResult}. */
export type InputRequiredMethod = "tools/call" | "prompts/get" | "resources/read";

/** What each input-required method returns once complete. */
export interface CompleteResultOf {
  "tools/call": CallToolResult;
  "prompts/get": GetPromptResult;
  "resources/read": ReadResourceResult;
}

/** True when `result` asks for more input (`resultType: "input_required"`). */
export function isInputRequired(result: unknown): result is InputRequiredResult {
  return (
    typeof result === "object" &&
    result !== null &&
    (result as { resultType?: unknown }).resultType === "input_required"
  );
}
