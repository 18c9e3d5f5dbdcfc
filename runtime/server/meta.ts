import type { ClientCapabilities, Implementation, LoggingLevel } from "../protocol/types.js";
import type { RevisionAdapter } from "../protocol/adapter.js";
import { ALL_VERSIONS, type Era } from "../protocol/revisions.js";

/**
 * The protocol revisions a `Server` speaks by default, newest first: the
 * 2026-07-28 revision over per-request `_meta`, and the 2025 ones over the
 * `initialize` handshake. `legacy: "reject"` narrows it to the first.
 */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = ALL_VERSIONS;

export { MetaKey } from "../protocol/names.js";

/** What a request's `_meta` (or, for a 2025 client, its handshake) says about its sender. */
export interface RequestMeta {
  /** Which generation the request speaks, as classified at the edge. */
  era: Era;
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  /** The whole `_meta` object as sent (progress token, trace context, vendor keys). */
  raw: Record<string, unknown>;
  /** The least severe log level the client asked for, if any. */
  logLevel?: LoggingLevel | undefined;
  /** Whether log messages flow when no level was asked for (a 2025 session before `logging/setLevel`). */
  logsWithoutLevel?: boolean;
  /** The adapter of the request's revision, when it has one (runtime/adapters/<rev>.ts): its messages are mapped to and from the model. */
  adapter?: RevisionAdapter | undefined;
}
