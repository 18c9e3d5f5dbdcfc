/**
 * The protocol shapes the client speaks, taken from the generated
 * 2026-07-28 types, plus the few constants the client needs.
 *
 * @packageDocumentation
 */
import type { InputRequestMap } from "../protocol/types.js";
import { LEGACY_VERSIONS, MODERN_VERSIONS, type ServedModernRevision } from "../protocol/revisions.js";
import type { InputRequest as SchemaInputRequest, InputResponse as SchemaInputResponse } from "../protocol/types.js";

export type {
  CallToolResult,
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  GetPromptResult,
  Implementation,
  InputRequiredResult,
  ListRootsResult,
  ReadResourceResult,
  ServerCapabilities,
} from "../protocol/types.js";
export type { InputRequiredMethod } from "../protocol/types.js";

// The schema gives these two unions no description; named here so editors show one.
/** One question in an `InputRequiredResult`'s `inputRequests`: an elicitation, a sampling request or a roots request. */
export type InputRequest = SchemaInputRequest;
/** The answer to one {@link InputRequest}, sent back under the same key in `inputResponses`. */
export type InputResponse = SchemaInputResponse;

/** Parameters of a `roots/list` input request (usually empty). */
export type ListRootsRequestParams = InputRequestMap["roots/list"]["params"];

// A modern (per-request `_meta`) revision this client speaks, one the package serves (schema/sources.json, through the
// generated index), named after MODERN_PROTOCOL_VERSION; its documentation is the generated type's.
export type { ServedModernRevision as ModernProtocolVersion } from "../protocol/revisions.js";

/**
 * The newest modern protocol revision this client speaks: what it offers
 * first. Against a server that does not take it, the client speaks the
 * newest modern revision both sides share.
 */
// One list of versions for the whole package (protocol/revisions.ts); the literal types are what the API promises.
export const MODERN_PROTOCOL_VERSION = MODERN_VERSIONS[0] as ServedModernRevision;

/** Handshake-era revisions this client can fall back to (newest first). */
export const LEGACY_PROTOCOL_VERSIONS = LEGACY_VERSIONS as unknown as readonly ["2025-11-25", "2025-06-18", "2025-03-26"];

const LEGACY: ReadonlySet<string> = new Set(LEGACY_VERSIONS);

/** True for a handshake-era version this client speaks. @internal */
export function isLegacyVersion(version: unknown): version is string {
  return typeof version === "string" && LEGACY.has(version);
}

/** The versions this client speaks, for error messages. @internal */
export const SPOKEN = [...MODERN_VERSIONS, ...LEGACY_VERSIONS].join(", ");

/** A JSON object as the protocol carries it. */
export type JsonObject = Record<string, unknown>;

export { isInputRequired } from "../protocol/input-required-guard.js";
