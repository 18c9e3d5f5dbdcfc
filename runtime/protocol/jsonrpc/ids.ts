/**
 * Request ids as the runtime keeps them: a map key that tells 1 from "1". Not part of the public
 * JSON-RPC exports.
 *
 * @module
 * @internal
 */
import type { JsonRpcId } from "./messages.js";

/** A map key for a request id: ids 1 and "1" are different requests, so the key says which type the id had. @internal */
export function keyOf(id: JsonRpcId): string {
  return typeof id === "number" ? "n" + id : "s" + id;
}
