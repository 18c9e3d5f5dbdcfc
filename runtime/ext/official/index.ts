/**
 * Sealed `requestState` for servers built on the official TypeScript SDK
 * (`@modelcontextprotocol/server` 2.4.0, and frameworks on top of it):
 * {@link createSealedRequestStateCodec} returns their `RequestStateCodec`,
 * sealing mcp-roundtrip v1 tokens (AES-256-GCM, key ring, bound to request,
 * principal and audience); {@link officialEventBus} lets their `createMcpHandler`
 * and our servers share `subscriptions/listen` change events. Imports nothing from their packages, at run time
 * or in its types. See `docs/official-sdk.md`.
 *
 * @packageDocumentation
 */
export { createSealedRequestStateCodec } from "./codec.js";
export { principalOfOfficialAuthInfo } from "./principal.js";
export { officialEventBus, type OfficialServerEvent, type OfficialServerEventBus } from "./event-bus.js";
export type {
  BoundRequest,
  CaptureOptions,
  FetchHandler,
  FetchHandlerOptions,
  OfficialAuthInfo,
  OfficialRequestContext,
  SealedRequestStateCodec,
  SealedRequestStateCodecOptions,
} from "./types.js";
// The security the codec seals with, so a server on the official SDK needs one import.
export {
  InvalidRequestState,
  MemoryReplayStore,
  RequestStateSecurity,
  type ReplayStore,
  type RequestStateLogger,
  type RequestStateRejection,
  type RequestStateSecret,
  type RequestStateSecurityOptions,
} from "../../state/index.js";
