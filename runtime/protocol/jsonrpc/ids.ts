/**
 * Request ids as the runtime keeps them: the id a message carries, when it
 * is one, and a map key that tells 1 from "1". Not part of the public
 * JSON-RPC exports.
 *
 * @module
 * @internal
 */
import { isValidRequestId, type JsonRpcId } from "./messages.js";

/** A message's `id` when it is a valid request id, else `undefined`. @internal */
export function readableId(message: Record<string, unknown>): JsonRpcId | undefined {
  const id = message.id;
  return isValidRequestId(id) ? id : undefined;
}

/** A map key for a request id: ids 1 and "1" are different requests, so the key says which type the id had. @internal */
export function keyOf(id: JsonRpcId): string {
  return typeof id === "number" ? "n" + id : "s" + id;
}
