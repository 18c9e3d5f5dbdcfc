/**
 * The elicitation form schema, its TypeScript reading and its checkers live
 * in `runtime/validate/elicitation-form.ts`, where the client (which checks
 * its own `onElicit` answers) may import them too.
 */
export * from "../../validate/elicitation-form.js";
