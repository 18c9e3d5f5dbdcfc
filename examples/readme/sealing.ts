// README "Sealing requestState": shared keys, rotation, audience, principal
// binding, a custom codec and one-time use.
import { McpServer, MemoryReplayStore, RequestStateSecurity, type RequestStateCodec } from "mcp-roundtrip/server";

/** A fleet's server: every instance holds the same keys, so any of them can finish any round. */
export function fleetServer(stateKey: string): McpServer {
  const security = new RequestStateSecurity({ keys: [stateKey] }, { audience: "deployer", ttl: 300 });
  return new McpServer({ name: "deployer", version: "1.0.0" }, { requestStateSecurity: security });
}

/**
 * Rotating a key takes three deployments, each a full rollout: the first
 * key mints, every key verifies. Wait one ttl before the last step.
 */
export function rotationPhases(oldKey: string, newKey: string): RequestStateSecurity[] {
  return [
    new RequestStateSecurity({ keys: [oldKey, newKey] }, { audience: "deployer" }), // 1: learn NEW
    new RequestStateSecurity({ keys: [newKey, oldKey] }, { audience: "deployer" }), // 2: mint with NEW
    new RequestStateSecurity({ keys: [newKey] }, { audience: "deployer" }), //         3: forget OLD
  ];
}

/** Binds tokens to a user your proxy authenticated, instead of the transport's `authInfo`. */
export const behindProxy = (stateKey: string): RequestStateSecurity =>
  new RequestStateSecurity(
    { keys: [stateKey] },
    {
      audience: "deployer",
      bindPrincipal: (context) => context.headers?.get("x-authenticated-user") ?? undefined,
    },
  );

/** One-time tokens: a round's token is accepted once (per process, for this store). */
export const oneTimeTokens = (stateKey: string): RequestStateSecurity =>
  new RequestStateSecurity({ keys: [stateKey] }, { audience: "deployer", replay: new MemoryReplayStore() });

/** Your own sealing (a KMS, a vault): a codec turns envelope bytes into a token and back. */
export function withCodec(codec: RequestStateCodec): RequestStateSecurity {
  return new RequestStateSecurity({ codec }, { audience: "deployer" });
}
