// Moved to the protocol floor (runtime/protocol/tasks-wire.ts); this path stays for the modules that still import it.
export * from "./protocol/tasks-wire.js";
