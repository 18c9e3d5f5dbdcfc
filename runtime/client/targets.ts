import type { ClientTransport } from "../protocol/contracts.js";

/**
 * Where `mode: "auto"` remembers a server's era (2026-07-28 versioning:
 * "for the lifetime of the server process (stdio) or origin (HTTP)"): the
 * transport's own {@link ClientTransport.endpointKey} (the endpoint's origin
 * and path, or the command line and working directory); `undefined` for
 * transports that name no server (in-process handlers, custom transports),
 * which are probed every time.
 */
export function negotiationKey(transport: ClientTransport): string | undefined {
  const key = transport.endpointKey;
  return typeof key === "string" ? key : undefined;
}
