/**
 * Form elicitation: a question that asks the user to fill a form, given as
 * a JSON Schema of a flat object of primitive fields or as a Standard Schema
 * (zod 4, valibot, arktype, …) of that object, and the handler's view of the
 * answer.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { isStandardSchema, type StandardCheck, type StandardSchemaConverter, type StandardValidator } from "../schema/standard.js";
import { assertElicitSchema, checkElicitContent, type ElicitContent, type ElicitSchema, type Issue } from "./elicitation-schema.js";
import { elicitDigest } from "./digest.js";
import { QUESTION, reaskMessage, refuse, type AnswerReading, type Question } from "./questions.js";
import { standardFormOf } from "./standard-form.js";
import { capabilitiesNeededBy } from "../capabilities.js";

/**
 * The handler's view of an elicitation: the user's choice and, when they
 * accepted, the form content validated against the schema that was asked.
 */
export type Elicitation<C> =
  | {
      /** The user submitted the form. */
      readonly action: "accept";
      /** What they entered, already checked against the form's schema. */
      readonly content: C;
    }
  | {
      /** The user explicitly refused to answer. */
      readonly action: "decline";
      /** Never set: there is no answer. */
      readonly content?: undefined;
    }
  | {
      /** The user dismissed the form without choosing (closed it, timed out). */
      readonly action: "cancel";
      /** Never set: there is no answer. */
      readonly content?: undefined;
    };

/**
 * The `content` an accepted form gives the handler: for a JSON Schema form
 * its reading ({@link ElicitContent}), for a Standard Schema the library's
 * output type (after its transforms and defaults).
 */
export type ElicitFormContent<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : S extends ElicitSchema ? ElicitContent<S> : never;

/** A form elicitation; the handler receives an {@link Elicitation} of the typed content. */
export interface ElicitQuestion<S extends ElicitSchema | StandardSchemaV1 = ElicitSchema> extends Question<Elicitation<ElicitFormContent<S>>> {
  readonly kind: "elicit";
  /** What the client shows the user above the form. */
  readonly message: string;
  /**
   * The form as given: the `requestedSchema` itself, whose literal type gives the handler's typed `content`, or
   * the Standard Schema whose JSON Schema is sent and whose output type `content` has.
   */
  readonly schema: S;
}

/** Prefixes the issues of an answer's content with `/content`, where they sit in the `ElicitResult`. */
const inContent = (issues: readonly Issue[]): Issue[] => issues.map((issue) => ({ path: `/content${issue.path}`, message: issue.message }));

/**
 * Declares a form elicitation: the client shows `message` and a form built
 * from `schema`, and the handler receives the user's action and, on accept,
 * the content typed from the schema.
 *
 * The schema is a JSON Schema of a flat object of primitive fields, or a
 * Standard Schema of that object (zod 4, valibot, arktype). A Standard
 * Schema is sent as its library's JSON Schema of its input
 * (`~standard.jsonSchema`, or `toJsonSchema`'s answer for a library without
 * it, such as a bare valibot schema), converted once per schema object; an
 * accepted answer is checked against that form, then validated by the
 * library, so its refinements, transforms and defaults apply and the handler
 * receives its output. An answer either check refuses is asked for once more
 * with the reason, like any misfit.
 *
 * @param question - `message` shown to the user, the form's `schema`, and for a Standard Schema without
 *   `~standard.jsonSchema` the library's converter as `toJsonSchema` (e.g. valibot's from `@valibot/to-json-schema`).
 * @throws TypeError when the message is empty, the schema is outside the elicitation subset (for a Standard
 *   Schema: its JSON Schema is, e.g. a nested object), or a Standard Schema cannot be converted; the message names
 *   each bad path.
 * @example
 * ```ts
 * elicit({
 *   message: "Which region should the database live in?",
 *   schema: { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } }, required: ["region"] },
 * });
 * // handler receives { action: "accept", content: { region: "eu" | "us" } } | { action: "decline" } | { action: "cancel" }
 * elicit({ message: "Your name?", schema: z.object({ name: z.string().trim().min(2) }) }); // content: { name: string }
 * ```
 */
export function elicit<S extends StandardSchemaV1>(question: { message: string; schema: S; toJsonSchema?: StandardSchemaConverter }): ElicitQuestion<S>;
/**
 * Declares a form elicitation from a JSON Schema form, a flat object of primitive fields: written inline or
 * `as const`, its literal type gives the handler's typed `content`.
 *
 * @param question - `message` shown to the user and the form's `schema`, sent as `requestedSchema`.
 * @throws TypeError when the message is empty or the schema is outside the elicitation subset; the message names each bad path.
 */
export function elicit<const S extends ElicitSchema>(question: { message: string; schema: S }): ElicitQuestion<S>;
export function elicit(question: { message: string; schema: ElicitSchema | StandardSchemaV1; toJsonSchema?: StandardSchemaConverter }): ElicitQuestion<any> {
  if (!isObject(question)) throw new TypeError("elicit() expects { message, schema }");
  const { message, schema } = question;
  if (typeof message !== "string" || message.trim() === "") {
    throw new TypeError('elicit(): "message" must be a non-empty string telling the user what is asked');
  }
  if (isStandardSchema(schema)) {
    const form = standardFormOf(schema, question.toJsonSchema);
    return formQuestion(message, schema, form.requested, form.parse);
  }
  assertElicitSchema(schema, '"schema" is not');
  return formQuestion(message, schema, schema, undefined);
}

/**
 * The question for a checked form: `requested` is sent, and an accepted
 * answer must fit it, then `parse` (a Standard Schema's library) when given.
 */
function formQuestion(message: string, schema: ElicitSchema | StandardSchemaV1, requested: ElicitSchema, parse: StandardValidator | undefined): ElicitQuestion<any> {
  // Resolvers run every round and usually ask the same message with the same constant schema: the frozen question is reused.
  let byMessage = questionsBySchema.get(schema);
  const known = byMessage?.get(message);
  if (known !== undefined) return known;
  const question = buildQuestion(message, schema, requested, parse);
  if (byMessage === undefined) questionsBySchema.set(schema, (byMessage = new Map()));
  if (byMessage.size >= QUESTIONS_PER_SCHEMA) byMessage.clear();
  byMessage.set(message, question);
  return question;
}

/** The kind a form question asks: this helper's definition. */
const ELICIT = "elicitation/create" as const;

/** What every form question needs, read once from the kind table. */
const FORM_REQUIRES = capabilitiesNeededBy({ method: ELICIT, params: { mode: "form" } });

/** Per schema object, the questions asked with it by message (a question is immutable, so one may serve every call). */
const questionsBySchema = new WeakMap<object, Map<string, ElicitQuestion<any>>>();
const QUESTIONS_PER_SCHEMA = 64;

function buildQuestion(
  message: string,
  schema: ElicitSchema | StandardSchemaV1,
  requested: ElicitSchema,
  parse: StandardValidator | undefined,
): ElicitQuestion<any> {
  const read = (response: unknown): AnswerReading<Elicitation<unknown>> | Promise<AnswerReading<Elicitation<unknown>>> => {
    if (!isObject(response)) return refuse("", "an elicitation answer must be an ElicitResult object");
    const { action } = response;
    if (action === "decline" || action === "cancel") {
      return { ok: true, value: { action }, record: { action } };
    }
    if (action !== "accept") return refuse("/action", 'must be "accept", "decline" or "cancel"');
    const content = response.content ?? {};
    // The form's own rules first: they are what the client was shown, so a misfit is named in its terms.
    const issues = checkElicitContent(requested, content);
    if (issues.length > 0) return { ok: false, issues: inContent(issues) };
    const copy = { ...(content as Record<string, unknown>) };
    if (parse === undefined) return { ok: true, value: { action, content: copy }, record: { action, content: copy } };
    // The state keeps the answer as sent, so the library's transforms run again (and alike) each round it is read.
    const parsed = (check: StandardCheck): AnswerReading<Elicitation<unknown>> =>
      check.ok ? { ok: true, value: { action, content: check.value }, record: { action, content: copy } } : { ok: false, issues: inContent(check.issues) };
    const checked = parse({ ...copy });
    return checked instanceof Promise ? checked.then(parsed) : parsed(checked);
  };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "elicit" as const,
    message,
    schema,
    request: { method: ELICIT, params: { mode: "form" as const, message, requestedSchema: requested as never } },
    reask: (reason: string) => ({
      method: ELICIT,
      params: { mode: "form" as const, message: reaskMessage(message, reason), requestedSchema: requested as never },
    }),
    digest: elicitDigest(message, requested),
    requires: FORM_REQUIRES,
    read,
  });
}
