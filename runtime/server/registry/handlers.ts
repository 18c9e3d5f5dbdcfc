/**
 * How an `McpServer`'s registries meet the low-level `Server`: the handlers
 * that answer the list, call, get, read and complete methods from them, and
 * the capabilities their registrations imply.
 *
 * @module
 */
import { JsonRpcErrorCode, McpError } from "../../protocol/jsonrpc/errors.js";
import type { ServerHandlers } from "../types.js";
import type { PromptRegistry } from "./prompts.js";
import type { ResourceRegistry } from "./resources.js";
import type { ToolRegistry } from "./tools.js";

/** Refuses a method of a feature nothing is registered for, as a server without the capability would. */
function requireRegistered(count: number, feature: string): void {
  if (count === 0) {
    throw new McpError(JsonRpcErrorCode.MethodNotFound, `${feature} not supported`, {
      reason: `Server does not support the ${feature.toLowerCase()} capability`,
    });
  }
}

/**
 * The `Server` handlers answered by the registries, each refusing with `-32601` while its registry is empty.
 * @internal
 */
export function registryHandlers(tools: ToolRegistry, prompts: PromptRegistry, resources: ResourceRegistry): ServerHandlers {
  return {
    onListTools: () => (requireRegistered(tools.size, "Tools"), tools.list()),
    // Bound, not wrapped: a call reaches ToolRegistry.call directly, which says "not supported" itself when there are no tools.
    onCallTool: tools.call.bind(tools),
    onListPrompts: () => (requireRegistered(prompts.size, "Prompts"), prompts.list()),
    onGetPrompt: (params, ctx) => (requireRegistered(prompts.size, "Prompts"), prompts.get(params, ctx)),
    onListResources: () => (requireRegistered(resources.size, "Resources"), resources.list()),
    onListResourceTemplates: () => (requireRegistered(resources.size, "Resources"), resources.listTemplates()),
    onReadResource: (params, ctx) => (requireRegistered(resources.size, "Resources"), resources.read(params, ctx)),
    onComplete: (params) => {
      const { ref, argument, context } = params;
      if (ref.type === "ref/prompt") return prompts.complete(ref.name, argument.name, argument.value, context?.arguments);
      return resources.complete(ref.uri, argument.name, argument.value, context?.arguments);
    },
  };
}

/**
 * The capabilities the registrations imply (before the server's extra ones).
 * @internal
 */
export function registryCapabilities(tools: ToolRegistry, prompts: PromptRegistry, resources: ResourceRegistry): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {};
  if (tools.size > 0) capabilities.tools = { listChanged: true };
  if (prompts.size > 0) capabilities.prompts = { listChanged: true };
  if (resources.size > 0) capabilities.resources = { listChanged: true, subscribe: true };
  if (prompts.hasCompleters || resources.hasCompleters) capabilities.completions = {};
  return capabilities;
}
