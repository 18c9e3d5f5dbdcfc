export * from "./errors.js";
export * from "./messages.js";
