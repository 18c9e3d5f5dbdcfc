// Moved to the protocol floor (runtime/protocol/jsonrpc/); this path stays for the modules that still import it.
export * from "../protocol/jsonrpc/errors.js";
