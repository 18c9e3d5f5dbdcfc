import { copyToExtend } from "../protocol/copy.js";
import type { ClientCapabilities, Implementation, JsonObject } from "./protocol.js";
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from "../protocol/names.js";

/**
 * Reported as `clientInfo` when the caller gives none: this package, at the
 * version package.json names (scripts/version-packages.mjs keeps the two equal
 * at each release, and test/package/version.test.ts checks it).
 */
export const DEFAULT_CLIENT_INFO: Implementation = Object.freeze({ name: "mcp-roundtrip", version: "0.2.0" });

/**
 * The per-request `_meta` envelope of the modern protocol. Built once per
 * client and frozen: every request shares it, so none may change it.
 */
export function buildEnvelope(protocolVersion: string, capabilities: ClientCapabilities, clientInfo: Implementation | false): Readonly<JsonObject> {
  const envelope: JsonObject = {
    [META_PROTOCOL_VERSION]: protocolVersion,
    [META_CLIENT_CAPABILITIES]: capabilities,
  };
  if (clientInfo) envelope[META_CLIENT_INFO] = clientInfo;
  return Object.freeze(envelope);
}

/**
 * `_meta` for one request: the envelope alone, or the caller's own keys
 * (`progressToken`, `io.modelcontextprotocol/logLevel`, …) with the
 * envelope's keys winning, since the protocol fields are the client's to set.
 */
export function mergeMeta(envelope: Readonly<JsonObject>, own: JsonObject | undefined): Readonly<JsonObject> {
  if (own === undefined) return envelope;
  // Not { ...own, ...envelope }: see copyToExtend. The envelope is ours (no "__proto__" key), so assigning it is exact.
  return Object.assign(copyToExtend(own), envelope);
}
