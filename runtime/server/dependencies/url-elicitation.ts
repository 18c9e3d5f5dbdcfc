/**
 * URL elicitation: a question that sends the user to a page (a sign-in, a
 * payment) instead of asking through the client, and the handler's view of
 * the user's choice.
 *
 * @module
 */
import { isObject } from "../../protocol/guards.js";
import { capabilitiesNeededBy } from "../capabilities.js";
import { questionDigest } from "./digest.js";
import { QUESTION, reaskMessage, refuse, type AnswerReading, type Question } from "./questions.js";

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
  /** Reads the client's answer; never asynchronous for this kind. @internal */
  read(response: unknown): AnswerReading<UrlElicitation>;
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
    throw new TypeError(`elicitUrl(): "url" must use https: (or http: in development), got the ${JSON.stringify(parsed.protocol)} scheme`);
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
    requires: capabilitiesNeededBy(request),
    read,
  });
}
