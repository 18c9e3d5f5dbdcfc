import type { ValidationError } from "../../generated/2026-07-28/validators.js";

/** One validation problem: where it is (a JSON Pointer into the value) and what is wrong. */
export interface ValidationIssue {
  /** JSON Pointer to the offending value, e.g. `/params/arguments`; `""` is the value itself. */
  path: string;
  /** What is wrong there, in words (`must be string`, `is required`). */
  message: string;
}

const depth = (path: string) => (path === "" ? 0 : path.split("/").length - 1);

/** A JSON Pointer that names the offending member itself, not just its parent object. */
function pathOf(error: ValidationError): string {
  const params = error.params;
  if (error.keyword === "required" && typeof params.missingProperty === "string") {
    return `${error.instancePath}/${escapePointerToken(params.missingProperty)}`;
  }
  if (error.keyword === "discriminator" && typeof params.tag === "string") {
    return `${error.instancePath}/${escapePointerToken(params.tag)}`;
  }
  if (error.keyword === "additionalProperties" && typeof params.additionalProperty === "string") {
    return `${error.instancePath}/${escapePointerToken(params.additionalProperty)}`;
  }
  return error.instancePath;
}

/** One JSON Pointer reference token, escaped (`~` → `~0`, `/` → `~1`). @internal */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}

const show = (value: unknown) => JSON.stringify(value);

function messageOf(error: ValidationError): string {
  const params = error.params;
  switch (error.keyword) {
    case "required":
      return "is required";
    case "additionalProperties":
      return "is not allowed here";
    case "type":
      return `must be ${String(params.type).split(",").join(" or ")}`;
    case "const":
      return `must be ${show(params.allowedValue)}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map(show).join(", ")}`;
    case "discriminator":
      if (params.tagValue === undefined) return "is required";
      return params.error === "tag" ? "must be string" : `${show(params.tagValue)} is not one of the known values`;
    case "format":
      return `must be a valid ${String(params.format)}`;
    case "anyOf":
    case "oneOf":
      return "does not match any of the allowed shapes";
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/** Keywords that only summarise errors already reported below them. */
const SUMMARIES = new Set(["if", "anyOf", "oneOf", "allOf"]);

/**
 * Recognises "at least one of these members" (an `anyOf` whose every branch
 * only failed a `required`), which would otherwise read as if each member
 * were required on its own.
 */
function alternativeRequirements(errors: readonly ValidationError[]): ValidationIssue | undefined {
  const anyOf = errors.find((error) => error.keyword === "anyOf");
  if (!anyOf) return undefined;
  const prefix = `${anyOf.schemaPath}/`;
  const branches = errors.filter((error) => error !== anyOf && !SUMMARIES.has(error.keyword));
  const alternatives = branches.filter(
    (error) =>
      error.keyword === "required" &&
      error.instancePath === anyOf.instancePath &&
      error.schemaPath.startsWith(prefix) &&
      /^\d+\/required$/.test(error.schemaPath.slice(prefix.length)),
  );
  if (alternatives.length < 2 || alternatives.length !== branches.length) return undefined;
  const names = alternatives.map((error) => show(error.params.missingProperty));
  return { path: anyOf.instancePath, message: `needs at least one of ${names.join(", ")}` };
}

/**
 * Turns AJV's errors into issues, most specific first: the deepest path wins,
 * because an `anyOf` reports every branch's first failure and the deepest one
 * is the branch the value most nearly matched.
 */
export function toIssues(errors: readonly ValidationError[] | null | undefined): ValidationIssue[] {
  if (!errors || errors.length === 0) return [{ path: "", message: "is invalid" }];
  const alternatives = alternativeRequirements(errors);
  if (alternatives) return [alternatives];
  const concrete = errors.filter((error) => !SUMMARIES.has(error.keyword));
  const pool = concrete.length > 0 ? concrete : [...errors];
  const ranked = pool.map((error) => ({ path: pathOf(error), message: messageOf(error) }));
  const deepest = Math.max(...ranked.map((issue) => depth(issue.path)));
  const best = ranked.filter((issue) => depth(issue.path) === deepest);
  const seen = new Set<string>();
  return best.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    return !seen.has(key) && seen.add(key);
  });
}

/** The issues as one line, each `path message` (`/content/name must be a string; /content/age is required`). */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path === "" ? "(root)" : issue.path} ${issue.message}`).join("; ");
}

/** The readable one-line summary of a failed validation, naming each path. */
export function summarise(subject: string, issues: readonly ValidationIssue[]): string {
  return `Invalid ${subject}: ${describeIssues(issues)}`;
}
