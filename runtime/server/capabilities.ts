import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types.js";
import type { ServerHandlers } from "./types.js";
import { isObject } from "../protocol/guards.js";

type CapabilityBag = Record<string, Record<string, object>>;

function add(missing: CapabilityBag, capability: string, mode?: string): void {
  const entry = (missing[capability] ??= {});
  if (mode !== undefined) entry[mode] = {};
}

/** Form mode is also what a bare `elicitation: {}` declares (the spec's backwards-compatible reading). */
function supportsElicitationMode(declared: unknown, mode: string): boolean {
  if (!isObject(declared)) return false;
  if (mode === "form" && declared.form === undefined && declared.url === undefined) return true;
  return isObject(declared[mode]);
}

/**
 * Lists the client capabilities that a set of input requests needs but the
 * request's `_meta` did not declare.
 *
 * Elicitation needs its mode (`form`, the default, or `url`); sampling needs
 * `sampling`, plus `sampling.tools` when it offers tools or a tool choice and
 * `sampling.context` when it asks for context inclusion; `roots/list` needs
 * `roots`.
 *
 * @param inputRequests - the `inputRequests` map a handler returned
 * @param declared - the client's capabilities for this request
 * @returns the missing capabilities in `ClientCapabilities` shape, or
 *   `undefined` when the client can answer every request
 * @internal
 */
function missingClientCapabilities(inputRequests: Record<string, unknown> | undefined, declared: ClientCapabilities): ClientCapabilities | undefined {
  if (inputRequests === undefined) return undefined;
  let missing: CapabilityBag | undefined;
  for (const key in inputRequests) {
    const request = inputRequests[key];
    if (!isObject(request)) continue; // shape errors are the result validator's to report
    const params = isObject(request.params) ? request.params : {};
    switch (request.method) {
      case "elicitation/create": {
        const mode = typeof params.mode === "string" ? params.mode : "form";
        if (!supportsElicitationMode(declared.elicitation, mode)) add((missing ??= {}), "elicitation", mode);
        break;
      }
      case "sampling/createMessage": {
        const sampling = declared.sampling;
        if (!isObject(sampling)) {
          add((missing ??= {}), "sampling");
        }
        const usesTools = (Array.isArray(params.tools) && params.tools.length > 0) || params.toolChoice !== undefined;
        if (usesTools && !(isObject(sampling) && isObject(sampling.tools))) add((missing ??= {}), "sampling", "tools");
        const includesContext = params.includeContext === "thisServer" || params.includeContext === "allServers";
        if (includesContext && !(isObject(sampling) && isObject(sampling.context))) add((missing ??= {}), "sampling", "context");
        break;
      }
      case "roots/list":
        if (!isObject(declared.roots)) add((missing ??= {}), "roots");
        break;
      default:
        break;
    }
  }
  return missing as ClientCapabilities | undefined;
}

function describeCapabilities(capabilities: object): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(capabilities)) {
    const modes = isObject(value) ? Object.keys(value) : [];
    parts.push(modes.length === 0 ? name : modes.map((mode) => `${name}.${mode}`).join(", "));
  }
  return parts.join(", ");
}

/**
 * Refuses input requests the client cannot answer: the spec forbids sending
 * them, and says to answer MissingRequiredClientCapabilityError instead.
 *
 * @throws McpError -32021 with `data.requiredCapabilities` listing what is missing
 * @internal
 */
export function assertClientCanAnswer(inputRequests: Record<string, unknown> | undefined, declared: ClientCapabilities): void {
  const missing = missingClientCapabilities(inputRequests, declared);
  if (missing === undefined) return;
  throw new McpError(
    JsonRpcErrorCode.MissingRequiredClientCapability,
    `Server requires client capabilities this request did not declare: ${describeCapabilities(missing)}`,
    { requiredCapabilities: missing },
  );
}

/**
 * The capabilities a low-level `Server` advertises: one per feature its
 * handlers implement, with `extra` merged over them (objects shallowly).
 * @internal
 */
export function deriveCapabilities(h: ServerHandlers, extra: ServerCapabilities | undefined): ServerCapabilities {
  const capabilities: Record<string, unknown> = {};
  if (h.onListTools || h.onCallTool) capabilities.tools = {};
  if (h.onListPrompts || h.onGetPrompt) capabilities.prompts = {};
  if (h.onListResources || h.onListResourceTemplates || h.onReadResource) capabilities.resources = {};
  if (h.onComplete) capabilities.completions = {};
  for (const [key, value] of Object.entries(extra ?? {})) {
    const base = capabilities[key];
    capabilities[key] = isObject(base) && isObject(value) ? { ...base, ...value } : value;
  }
  return capabilities as ServerCapabilities;
}
