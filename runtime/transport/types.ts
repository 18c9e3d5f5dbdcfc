// The transport contracts moved to the protocol floor (runtime/protocol/context.ts and contracts.ts);
// this path stays for the modules that still import it.
export type { AuthInfo, RequestContext } from "../protocol/context.js";
export * from "../protocol/contracts.js";
