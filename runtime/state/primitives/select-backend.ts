import type { CryptoBackend, CryptoBackendChoice } from "./backend.js";
import { createNodeBackend } from "./backend-node.js";
import { nobleBackend } from "./backend-noble.js";
import { nodeBuiltin } from "../../protocol/require-sync.js";

let nodeBackend: CryptoBackend | null | undefined;

/**
 * The node:crypto backend, or `undefined` on a runtime without it. Looked up
 * through `process.getBuiltinModule` (Node ≥ 20.16, Bun, Deno), so no static
 * import of a platform module reaches bundles for other runtimes.
 *
 * @internal
 */
function nodeCryptoBackend(): CryptoBackend | undefined {
  if (nodeBackend === undefined) {
    const crypto = nodeBuiltin<typeof import("node:crypto")>("node:crypto");
    const buffer = nodeBuiltin<typeof import("node:buffer")>("node:buffer");
    nodeBackend = crypto && buffer ? createNodeBackend(crypto, buffer) : null;
  }
  return nodeBackend ?? undefined;
}

/**
 * Resolves a backend choice.
 *
 * @throws {RangeError} for an unknown choice, or `"node"` where node:crypto is absent.
 * @internal
 */
export function selectBackend(choice: CryptoBackendChoice = "auto"): CryptoBackend {
  switch (choice) {
    case "auto":
      return nodeCryptoBackend() ?? nobleBackend;
    case "noble":
      return nobleBackend;
    case "node": {
      const backend = nodeCryptoBackend();
      if (!backend) {
        throw new RangeError('crypto: "node" needs node:crypto, which this runtime lacks; use "auto" or "noble"');
      }
      return backend;
    }
    default:
      throw new RangeError(`crypto must be "auto", "node" or "noble", got ${JSON.stringify(choice)}`);
  }
}
