/**
 * Request-state security (`mcp-roundtrip/state`): seals a handler's
 * `requestState` into an AES-256-GCM token bound to the request, the
 * principal, the audience and a time window, in the reference SDK's token
 * format, and verifies it on the way back. Usable on its own (no server,
 * client or transport module is loaded); the server wires it in, and
 * `mcp-roundtrip/server` re-exports the everyday names
 * (`RequestStateSecurity`, `MemoryReplayStore`, `InvalidRequestState`,
 * `RequestStateUnavailable`, `principalOf` and the types they name). The key
 * tooling (`keyIdOf`, `decodeKeyEntry`, `DEFAULT_KEYS_ENV`,
 * `MIN_SECRET_BYTES`) and the parts of the fixed rejection are here only.
 *
 * @packageDocumentation
 */
export type { RequestStateCodec } from "./primitives/codec.js";
export type { CryptoBackendChoice } from "./primitives/backend.js";
export {
  INVALID_REQUEST_STATE_MESSAGE,
  INVALID_REQUEST_STATE_REASON,
  InvalidRequestState,
  invalidRequestStateError,
  RequestStateUnavailable,
} from "./primitives/errors.js";
export { MIN_SECRET_BYTES, type RequestStateSecret } from "./primitives/keys.js";
export { decodeKeyEntry, DEFAULT_KEYS_ENV, keyIdOf } from "./primitives/key-sources.js";
export { principalOf } from "./policy/principal.js";
export { MemoryReplayStore, type MemoryReplayStoreOptions, type ReplayLease, type ReplayQuotaExceeded, type ReplayStore } from "./policy/replay.js";
export type { RequestStateUse } from "./policy/use.js";
export { RequestStateSecurity } from "./token/security.js";
// security-types.ts holds only the public option and binding shapes, so all of it is exported.
export type * from "./policy/security-types.js";
