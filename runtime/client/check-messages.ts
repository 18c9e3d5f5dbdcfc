/**
 * The messages of the client's check errors (./check-errors.ts), written by
 * the lazily loaded modules that throw them (./tool-output.ts, ./resume.ts):
 * each says what went wrong and what to do. Apart from the classes, so the
 * text loads with the checks, not with every client.
 *
 * @internal
 * @module
 */
import type { ValidationIssue } from "../validate/issues.js";
import type { PendingRequest } from "./pending.js";
import type { PendingServer } from "./pending-server.js";

/** Why `ToolOutputInvalid` was thrown. @internal */
export function toolOutputMessage(tool: string, issues: readonly ValidationIssue[]): string {
  const problems = issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
  return (
    `Tool "${tool}" returned structuredContent that does not fit its outputSchema: ${problems}. ` +
    "The server is at fault; the result is on error.result. Pass { checkOutput: false } to accept it anyway."
  );
}

/** A server as a message names it: `"weather" 1.2.0 at https://a.example/mcp, speaking 2026-07-28`. */
function describeServer(server: PendingServer): string {
  const named = server.name === undefined ? "a server" : `"${server.name}"${server.version === undefined ? "" : ` ${server.version}`}`;
  return `${named}${server.endpoint === undefined ? " in this process" : ` at ${server.endpoint}`}, speaking ${server.protocolVersion}`;
}

/** Why `PendingServerMismatch` was thrown. @internal */
export function serverMismatchMessage(reason: "endpoint" | "name" | "revision", parked: PendingServer, current: PendingServer): string {
  const why =
    reason === "revision"
      ? `it no longer speaks ${parked.protocolVersion}, so it cannot continue the call`
      : `that is another server (another ${reason === "endpoint" ? "endpoint" : "name"})`;
  return (
    `client.resume: this call was parked with ${describeServer(parked)}; this client is connected to ${describeServer(current)}, and ${why}. ` +
    "Nothing was sent. Resume it with a client connected to the server it was parked with, or start the call afresh."
  );
}

/** Why `PendingStateRefused` was thrown, given how many answers were kept. @internal */
export function stateRefusedMessage(pending: PendingRequest, asked: number): string {
  return (
    `client.resume: the server no longer accepts this ${pending.method} "${pending.target}" call's requestState ` +
    "(it restarted with other keys, or the state expired). " +
    (asked === 0
      ? "Nobody was asked anything. Start the call afresh."
      : `The ${asked} answer(s) given are on error.answers: start the call afresh and answer the same questions from them.`)
  );
}
