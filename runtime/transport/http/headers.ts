// Moved to the protocol floor (runtime/protocol/headers.ts); this path stays for the modules that still import it.
export * from "../../protocol/headers.js";
