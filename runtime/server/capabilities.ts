import { JsonRpcErrorCode, McpError } from "../protocol/jsonrpc/errors.js";
import type { ClientCapabilities, ServerCapabilities } from "../protocol/types.js";
import type { ServerHandlers } from "./types.js";
import { isObject } from "../protocol/guards.js";
import { clientOptionFor, declares, inputKindFor, newestInputKind, subCapabilitiesNeeded } from "../protocol/input-kinds.js";

type CapabilityBag = Record<string, Record<string, object>>;

/** What an `InputRequiredResult` asks that the client cannot answer. @internal */
export interface MissingCapabilities {
  /** The missing capabilities in `ClientCapabilities` shape, as `data.requiredCapabilities` carries them. */
  readonly required: ClientCapabilities;
  /** The kinds asked that the client's revision does not define at all. */
  readonly undefinedKinds: readonly string[];
  /** The methods of the kinds that are missing something, for the message. */
  readonly methods: readonly string[];
  /** The revision whose kind table judged the request. */
  readonly revision: string;
}

function add(missing: CapabilityBag, capability: string, sub?: string): void {
  const entry = (missing[capability] ??= {});
  if (sub !== undefined) entry[sub] = {};
}

/**
 * Lists the client capabilities a set of input requests needs but the
 * client did not declare, read from the generated kind table of the
 * request's revision (a 2025 session: the 2025 table): the kind's
 * capability and the sub-capabilities its rules name for these params
 * (elicitation's mode, sampling's tools and context). A kind that revision
 * does not define is missing too, under the capability the newest revision
 * that defines it gates it with: no client of that revision can answer it.
 *
 * @param inputRequests - the `inputRequests` map a handler returned
 * @param declared - the client's capabilities for this request
 * @param version - the request's protocol version (`ctx.protocolVersion`)
 * @returns what is missing, or `undefined` when the client can answer every request
 * @internal
 */
export function missingClientCapabilities(
  inputRequests: Readonly<Record<string, unknown>> | undefined,
  declared: ClientCapabilities,
  version: string | undefined,
): MissingCapabilities | undefined {
  if (inputRequests === undefined) return undefined;
  let missing: CapabilityBag | undefined;
  const methods: string[] = [];
  const undefinedKinds: string[] = [];
  let revision = "";
  const have = declared as Record<string, unknown>;
  for (const key in inputRequests) {
    const request = inputRequests[key];
    // Shape errors (and a method no revision defines) are the result validator's to report.
    if (!isObject(request) || typeof request.method !== "string") continue;
    const method = request.method;
    const found = inputKindFor(version, method);
    revision = found.revision;
    const kind = found.kind ?? newestInputKind(method);
    if (kind === undefined) continue;
    const params = isObject(request.params) ? request.params : {};
    // A kind this revision lacks needs what the newest revision gates it with; a known one, its capability and the subs its rules name.
    const lacking: (string | undefined)[] = [];
    if (found.kind === undefined) {
      if (!undefinedKinds.includes(method)) undefinedKinds.push(method);
      lacking.push(undefined);
    } else {
      const subs = subCapabilitiesNeeded(kind, params);
      if (subs.length === 0 && !declares(have, kind)) lacking.push(undefined);
      for (const sub of subs) if (!declares(have, kind, sub)) lacking.push(sub);
    }
    for (const sub of lacking) add((missing ??= {}), kind.capability, sub);
    if (lacking.length > 0 && !methods.includes(method)) methods.push(method);
  }
  return missing === undefined ? undefined : { required: missing as ClientCapabilities, undefinedKinds, methods, revision };
}

/** `elicitation.url, sampling` from `{ elicitation: { url: {} }, sampling: {} }`. */
function describeCapabilities(capabilities: object): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(capabilities)) {
    const subs = isObject(value) ? Object.keys(value) : [];
    parts.push(subs.length === 0 ? name : subs.map((sub) => `${name}.${sub}`).join(", "));
  }
  return parts.join(", ");
}

/**
 * The -32021 for what {@link missingClientCapabilities} found, its message
 * naming the client option that answers each kind and the capabilities to
 * declare.
 * @internal
 */
export function missingCapabilityError(missing: MissingCapabilities): McpError {
  const options = missing.methods.map(clientOptionFor).join(", ");
  let message =
    `This request needs client capabilities it did not declare: ${describeCapabilities(missing.required)}. ` +
    `A client declares them by handling the request kind (mcp-roundtrip Client: ${options}) and, for a sub-capability, ` +
    `naming it in its capabilities (${JSON.stringify(missing.required)})`;
  if (missing.undefinedKinds.length > 0) {
    message += `; ${missing.undefinedKinds.join(", ")} is not part of protocol ${missing.revision}, which this client speaks, so only a client of a newer revision can be asked it`;
  }
  return new McpError(JsonRpcErrorCode.MissingRequiredClientCapability, message, { requiredCapabilities: missing.required });
}

/**
 * Refuses input requests the client cannot answer: the spec forbids sending
 * them, and says to answer MissingRequiredClientCapabilityError instead.
 *
 * @param version - the request's protocol version, whose kind table judges the requests
 * @throws McpError -32021 with `data.requiredCapabilities` listing what is missing
 * @internal
 */
export function assertClientCanAnswer(inputRequests: Record<string, unknown> | undefined, declared: ClientCapabilities, version: string | undefined): void {
  const missing = missingClientCapabilities(inputRequests, declared, version);
  if (missing !== undefined) throw missingCapabilityError(missing);
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

/**
 * Every client capability one input request needs, in the newest served
 * revision's terms: what a declared need's `requires` reports.
 * @internal
 */
export function capabilitiesNeededBy(request: { readonly method: string; readonly params?: unknown }): ClientCapabilities {
  return missingClientCapabilities({ request }, {}, undefined)?.required ?? {};
}
