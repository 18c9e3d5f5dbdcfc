import { checkElicitContent, checkElicitSchema, type ElicitContent, type ElicitSchema, type Issue } from "./elicitation-schema.js";
import { checkDefinition } from "../../validate/core.js";
import { TABLES_2026 } from "../../validate/tables-2026.js";
import { elicitDigest, questionDigest } from "./digest.js";
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, InputRequest, Root } from "./wire.js";
import { isObject } from "../../protocol/guards.js";

/**
 * Marks question objects. `Symbol.for` rather than a private symbol so two
 * copies of the package in one process (dual ESM/CJS installs) still
 * recognise each other's questions.
 */
const QUESTION: unique symbol = Symbol.for("mcp-roundtrip.dependency-question") as never;

/** What reading a client's answer to a question gives: the typed value, or why it was refused. */
export type AnswerReading<V> = { ok: true; value: V; record: unknown } | { ok: false; issues: Issue[] };

/**
 * Something a dependency asks the client: built by {@link elicit},
 * {@link elicitUrl}, {@link sample} or {@link listRoots}, returned from a resolver. `V` is the
 * value the tool's handler receives once the client answered.
 */
export interface Question<V = unknown> {
  /** @internal Brands question objects, so a resolver's plain return value is never mistaken for one. */
  readonly [QUESTION]: true;
  /** Which kind of input request this is. */
  readonly kind: "elicit" | "elicitUrl" | "sample" | "roots";
  /** The input request exactly as it goes into `inputRequests`. */
  readonly request: InputRequest;
  /** Digest of the rendered request (canonical JSON, SHA-256): what an answer is pinned to. */
  readonly digest: string;
  /** The client capabilities the request needs, as `-32021` reports them. */
  readonly requires: ClientCapabilities;
  /**
   * Validates a client's answer and turns it into the handler's value.
   * `record` is the normalised answer kept in the request state.
   * @internal
   */
  read(response: unknown): AnswerReading<V>;
  /**
   * The request asked a second time after an answer that did not fit:
   * `reason` is added to its message where it has one.
   * @internal
   */
  reask?(reason: string): InputRequest;
  /** Type-level only: the value the handler receives. Never set. */
  readonly __value?: V;
}

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

/** A form elicitation; the handler receives an {@link Elicitation} of the typed content. */
export interface ElicitQuestion<S extends ElicitSchema = ElicitSchema> extends Question<Elicitation<ElicitContent<S>>> {
  readonly kind: "elicit";
  /** What the client shows the user above the form. */
  readonly message: string;
  /** The form (`requestedSchema`); its literal type gives the handler's typed `content`. */
  readonly schema: S;
}

/**
 * The handler's view of a URL elicitation: the user's choice only. `accept`
 * means the user agreed to open the URL, not that the interaction there is
 * finished; the server learns that out of band (see {@link elicitUrl}).
 */
export type UrlElicitation =
  | {
      /** The user agreed to open the URL. */
      readonly action: "accept";
    }
  | {
      /** The user refused to open it. */
      readonly action: "decline";
    }
  | {
      /** The user dismissed the request without choosing. */
      readonly action: "cancel";
    };

/** A URL elicitation; the handler receives a {@link UrlElicitation}. */
export interface ElicitUrlQuestion extends Question<UrlElicitation> {
  readonly kind: "elicitUrl";
  /** Why the user should open the URL. */
  readonly message: string;
  /** Where the interaction happens (a sign-in, a payment); secrets entered there never pass through the client. */
  readonly url: string;
}

/** The parameters of `sampling/createMessage` (`messages` and `maxTokens` at least). */
export type SampleParams = CreateMessageRequestParams;

/** A sampling request; the handler receives the client's `CreateMessageResult`. */
export interface SampleQuestion extends Question<CreateMessageResult> {
  readonly kind: "sample";
}

/** A roots request; the handler receives the client's roots. */
export interface ListRootsQuestion extends Question<Root[]> {
  readonly kind: "roots";
}

/** The value a resolver's result gives the handler: a question's answer, or the plain value itself. */
export type ResolvedValue<R> = Awaited<R> extends Question<infer V> ? V : Awaited<R>;

/**
 * Tells a question from a plain value a resolver returned.
 * @internal
 */
export function isQuestion(value: unknown): value is Question {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[QUESTION] === true;
}

/**
 * Form schemas already found valid. Resolvers run every round and usually
 * pass the same constant schema object, so each is checked once.
 */
const checkedSchemas = new WeakSet<object>();

const refuse = (path: string, message: string): { ok: false; issues: Issue[] } => ({ ok: false, issues: [{ path, message }] });

/** An elicitation's message when it is asked again, telling the user why. */
const reaskMessage = (message: string, reason: string): string => `${message} (Your previous answer was not accepted: ${reason})`;

/**
 * Declares a form elicitation: the client shows `message` and a form built
 * from `schema`, and the handler receives the user's action and, on accept,
 * the content typed from the schema.
 *
 * @param question - `message` shown to the user and the form's `schema` (flat object of primitive fields).
 * @throws TypeError when the message is empty or the schema is outside the elicitation subset; the message names each bad path.
 * @example
 * ```ts
 * elicit({
 *   message: "Which region should the database live in?",
 *   schema: { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } }, required: ["region"] },
 * });
 * // handler receives { action: "accept", content: { region: "eu" | "us" } } | { action: "decline" } | { action: "cancel" }
 * ```
 */
export function elicit<const S extends ElicitSchema>(question: { message: string; schema: S }): ElicitQuestion<S> {
  if (!isObject(question)) throw new TypeError("elicit() expects { message, schema }");
  const { message, schema } = question;
  if (typeof message !== "string" || message.trim() === "") {
    throw new TypeError("elicit(): \"message\" must be a non-empty string telling the user what is asked");
  }
  const problems = checkedSchemas.has(schema) ? [] : checkElicitSchema(schema);
  if (problems.length === 0) checkedSchemas.add(schema);
  if (problems.length > 0) {
    const list = problems.map((issue) => `${issue.path || "/"}: ${issue.message}`).join("; ");
    throw new TypeError(`elicit(): "schema" is not a valid elicitation form schema (${list})`);
  }
  const read = (response: unknown): AnswerReading<Elicitation<ElicitContent<S>>> => {
    if (!isObject(response)) return refuse("", "an elicitation answer must be an ElicitResult object");
    const { action } = response;
    if (action === "decline" || action === "cancel") {
      return { ok: true, value: { action }, record: { action } };
    }
    if (action !== "accept") return refuse("/action", 'must be "accept", "decline" or "cancel"');
    const content = response.content ?? {};
    const issues = checkElicitContent(schema, content).map((issue) => ({ path: `/content${issue.path}`, message: issue.message }));
    if (issues.length > 0) return { ok: false, issues };
    const copy = { ...(content as Record<string, unknown>) } as ElicitContent<S>;
    return { ok: true, value: { action, content: copy }, record: { action, content: copy } };
  };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "elicit" as const,
    message,
    schema,
    request: { method: "elicitation/create" as const, params: { mode: "form" as const, message, requestedSchema: schema as never } },
    reask: (reason: string) => ({
      method: "elicitation/create" as const,
      params: { mode: "form" as const, message: reaskMessage(message, reason), requestedSchema: schema as never },
    }),
    digest: elicitDigest(message, schema),
    requires: { elicitation: { form: {} } },
    read,
  });
}

/**
 * Checks a URL elicitation's target: an absolute http(s) URL without
 * credentials in it (the spec forbids URLs that carry user credentials or
 * are pre-authenticated, and anything but http(s) is not a page to open).
 */
function checkElicitUrl(url: unknown): asserts url is string {
  if (typeof url !== "string" || url === "") {
    throw new TypeError('elicitUrl(): "url" must be a non-empty string holding an absolute http:// or https:// URL');
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`elicitUrl(): "url" must be an absolute http:// or https:// URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new TypeError(
      `elicitUrl(): "url" must use https: (or http: in development), got the ${JSON.stringify(parsed.protocol)} scheme`,
    );
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw new TypeError('elicitUrl(): "url" must not carry credentials (user:password@); the user signs in on the page itself');
  }
}

/**
 * Declares a URL elicitation: the client shows `message` and, with the
 * user's consent, opens `url` for an interaction that must not pass through
 * the client (signing in to a third party, entering an API key, paying).
 * The handler receives only the user's action.
 *
 * `accept` means the user agreed to open the URL; the interaction itself
 * happens out of band and may not be finished when the handler runs, so
 * check your own record of it (keyed by an identifier you put in the URL,
 * from the arguments or an earlier dependency). The 2026-07-28 revision
 * dropped `elicitationId`, so none is sent: the request carries `mode`,
 * `message` and `url` only. The URL must render the same every round (no
 * fresh random nonce per call): a changed URL or message is a new question
 * and is asked again.
 *
 * Requires the client capability `elicitation.url`; a client without it gets
 * `-32021`.
 *
 * @param question - `message` shown to the user and the absolute http(s) `url` to open.
 * @throws TypeError when the message is empty, or the URL is not an absolute http:/https: URL or carries credentials.
 * @example
 * ```ts
 * needs: (need) =>
 *   need.add("github", (args) =>
 *     elicitUrl({ message: "Connect your GitHub account", url: `https://app.example.com/connect?session=${args.session}` }),
 *   )
 * // handler receives { action: "accept" } | { action: "decline" } | { action: "cancel" }
 * ```
 */
export function elicitUrl(question: { message: string; url: string }): ElicitUrlQuestion {
  if (!isObject(question)) throw new TypeError("elicitUrl() expects { message, url }");
  const { message, url } = question;
  if (typeof message !== "string" || message.trim() === "") {
    throw new TypeError('elicitUrl(): "message" must be a non-empty string telling the user why they should open the URL');
  }
  checkElicitUrl(url);
  const read = (response: unknown): AnswerReading<UrlElicitation> => {
    if (!isObject(response)) return refuse("", "an elicitation answer must be an ElicitResult object");
    const { action } = response;
    if (action !== "accept" && action !== "decline" && action !== "cancel") {
      return refuse("/action", 'must be "accept", "decline" or "cancel"');
    }
    // Any `content` is dropped, not refused: in URL mode the spec has the
    // client omit it because the data goes to the page, never through the
    // client, so nothing it sends there may reach the handler; refusing would
    // only re-ask a sloppy but otherwise valid client forever.
    return { ok: true, value: { action }, record: { action } };
  };
  const request = { method: "elicitation/create" as const, params: { mode: "url" as const, message, url } };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "elicitUrl" as const,
    message,
    url,
    request,
    reask: (reason: string) => ({ ...request, params: { ...request.params, message: reaskMessage(message, reason) } }),
    digest: questionDigest(request),
    requires: { elicitation: { url: {} } },
    read,
  });
}

/**
 * Declares a sampling request: the client runs its LLM over `messages` and
 * the handler receives the `CreateMessageResult`.
 *
 * @param params - the `sampling/createMessage` parameters (`messages` and `maxTokens` at least).
 * @throws TypeError when `messages` is empty or `maxTokens` is not a positive integer.
 * @example
 * ```ts
 * sample({ messages: [{ role: "user", content: { type: "text", text: "Name this database" } }], maxTokens: 50 });
 * ```
 * @deprecated The protocol deprecates Sampling as of 2026-07-28 (SEP-2577), to be removed no earlier than a
 *   year later: it keeps working, but a server that needs a model should call an LLM provider itself.
 */
export function sample(params: SampleParams): SampleQuestion {
  if (!isObject(params)) throw new TypeError("sample() expects the sampling/createMessage parameters { messages, maxTokens, ... }");
  if (!Array.isArray(params.messages) || params.messages.length === 0) {
    throw new TypeError('sample(): "messages" must be a non-empty array of { role, content }');
  }
  params.messages.forEach((message, index) => {
    if (!isObject(message) || (message.role !== "user" && message.role !== "assistant") || message.content === undefined) {
      throw new TypeError(`sample(): messages[${index}] must be { role: "user" | "assistant", content }`);
    }
  });
  if (!Number.isInteger(params.maxTokens) || params.maxTokens <= 0) {
    throw new RangeError(`sample(): "maxTokens" must be a positive integer, got ${String(params.maxTokens)}`);
  }
  const sampling: Record<string, object> = {};
  if (params.tools !== undefined || params.toolChoice !== undefined) sampling.tools = {};
  if (params.includeContext === "thisServer" || params.includeContext === "allServers") sampling.context = {};
  const read = (response: unknown): AnswerReading<CreateMessageResult> => {
    if (!isObject(response)) return refuse("", "a sampling answer must be a CreateMessageResult object");
    // The wire may add resultType to any result; the handler's value is the CreateMessageResult alone.
    const { resultType: _resultType, ...result } = response;
    const checked = checkDefinition(TABLES_2026, "CreateMessageResult", result);
    if (!checked.ok) return { ok: false, issues: checked.issues };
    return { ok: true, value: result as unknown as CreateMessageResult, record: result };
  };
  const request = { method: "sampling/createMessage" as const, params: { ...params } };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "sample" as const,
    request,
    digest: questionDigest(request),
    requires: { sampling },
    read,
  });
}

let rootsDigest: string | undefined;

/**
 * Declares a roots request: the handler receives the client's roots.
 *
 * @example
 * ```ts
 * needs: (need) => need.add("roots", () => listRoots())
 * ```
 * @deprecated The protocol deprecates Roots as of 2026-07-28 (SEP-2577), to be removed no earlier than a year
 *   later: it keeps working, but pass directories and files as tool arguments, resource URIs or
 *   server configuration instead.
 */
export function listRoots(): ListRootsQuestion {
  const read = (response: unknown): AnswerReading<Root[]> => {
    if (!isObject(response)) return refuse("", "a roots answer must be a ListRootsResult object");
    const checked = checkDefinition(TABLES_2026, "ListRootsResult", response);
    if (!checked.ok) return { ok: false, issues: checked.issues };
    const roots = (response.roots as Root[]).map((root) => ({ ...root }));
    return { ok: true, value: roots, record: { roots } };
  };
  return Object.freeze({
    [QUESTION]: true as const,
    kind: "roots" as const,
    request: { method: "roots/list" as const },
    digest: (rootsDigest ??= questionDigest({ method: "roots/list" })),
    requires: { roots: {} },
    read,
  });
}
