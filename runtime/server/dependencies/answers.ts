/**
 * The check every answer to a question gets, whatever its kind: the result
 * type the generated kind table names for it, in the schema of the request's
 * revision (a 2025 session's: the 2025 schema, loaded with the 2025 path),
 * so a kind a new revision adds is checked with no edit here. Form
 * elicitation checks its content against the form on top of this.
 *
 * @internal
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import { type InputKindDefinition, inputKindFor, inputKindOf, newestInputKind } from "../../protocol/input-kinds.js";
import { MODERN_VERSIONS } from "../../protocol/revisions.js";
import { checkDefinition, type RevisionTables } from "../../validate/core.js";
import { tablesOfRevision } from "../../validate/revisions.js";
import { refuse, type AnswerReading } from "./questions.js";

/** An answer as the handler gets it: the client's result without the `resultType` the wire may add. */
type Answer = Record<string, unknown>;

function judge(tables: RevisionTables, kind: InputKindDefinition, answer: Answer): AnswerReading<Answer> {
  const checked = checkDefinition(tables, kind.result, answer);
  return checked.ok ? { ok: true, value: answer, record: answer } : { ok: false, issues: checked.issues };
}

/**
 * Checks a client's answer to an input request of `method` against that
 * kind's result type in the revision of `version` (the request's protocol
 * version; the newest served revision's when absent). Synchronous for a
 * modern revision; for a handshake-era one it waits for the 2025 tables,
 * which the 2025 path has already loaded.
 * @internal
 */
export function readAnswer(method: string, response: unknown, version: string | undefined): AnswerReading<Answer> | Promise<AnswerReading<Answer>> {
  if (!isObject(response)) return refuse("", `an answer to ${method} must be its result object`);
  // The wire may add resultType to any result; the handler's value is the kind's result alone.
  const { resultType: _resultType, ...answer } = response;
  const { revision, kind } = inputKindFor(version, method);
  // The capability check refuses a kind the revision lacks before anything is asked; an answer kept from before is judged by the newest.
  const judged = kind ?? newestInputKind(method);
  if (judged === undefined) return refuse("", `${method} is not an input request of any revision this server knows`);
  const tables = tablesOfRevision(revision);
  if (tables !== undefined) return judge(tables, judged, answer);
  return import("../../validate/tables-2025.js").then(({ TABLES_2025 }) => judge(TABLES_2025, judged, answer));
}

/**
 * The tables of the newest served revision that defines the kind `method`,
 * with its definition: what a question's request is checked against when it
 * is built. `undefined` when no served revision defines it.
 * @internal
 */
export function newestServedKind(method: string): { tables: RevisionTables; kind: InputKindDefinition } | undefined {
  for (const revision of MODERN_VERSIONS) {
    const kind = inputKindOf(revision, method);
    const tables = tablesOfRevision(revision);
    if (kind !== undefined && tables !== undefined) return { tables, kind };
  }
  return undefined;
}
