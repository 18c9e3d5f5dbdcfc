/**
 * The protocol types dependencies read and write, from the generated
 * 2026-07-28 definitions, under the names this folder uses.
 *
 * @internal
 */
export type {
  ClientCapabilities,
  CreateMessageRequestParams,
  CreateMessageResult,
  InputRequest,
  InputRequiredResult,
  Root,
} from "../../protocol/types.js";
