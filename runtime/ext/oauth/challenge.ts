/**
 * Reading a `WWW-Authenticate` header (RFC 9110 §11.6.1): the challenges
 * it holds, each a scheme with its parameters, so the client can find the
 * Bearer challenge's `resource_metadata` (RFC 9728 §5.1), `scope` and
 * `error` (RFC 6750 §3).
 *
 * @internal
 */

/** One challenge: its scheme (lower-cased) and parameters (names lower-cased, values unquoted). */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;
const OWS = /^[ \t]*/;

/**
 * Every challenge in a `WWW-Authenticate` value. A malformed tail ends the
 * reading: what was read before it is kept, nothing is guessed.
 *
 * @internal
 */
export function parseChallenges(header: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let rest = header;
  let current: AuthChallenge | undefined;
  const skip = (pattern: RegExp) => {
    rest = rest.slice(pattern.exec(rest)?.[0].length ?? 0);
  };
  for (;;) {
    const separator = /^[ \t,]*/.exec(rest)![0];
    rest = rest.slice(separator.length);
    if (rest === "") break;
    const token = TOKEN.exec(rest)?.[0];
    if (token === undefined) break;
    rest = rest.slice(token.length);
    skip(OWS);
    if (rest.startsWith("=") && current !== undefined && !/^=+[ \t]*(,|$)/.test(rest)) {
      // An auth-param of the current challenge: token BWS "=" BWS ( token / quoted-string ).
      rest = rest.slice(1);
      skip(OWS);
      let value: string | undefined;
      if (rest.startsWith('"')) {
        const quoted = /^"((?:[^"\\]|\\[\s\S])*)"/.exec(rest);
        if (!quoted) break;
        value = quoted[1]!.replace(/\\([\s\S])/g, "$1");
        rest = rest.slice(quoted[0].length);
      } else {
        value = TOKEN.exec(rest)?.[0];
        if (value === undefined) break;
        rest = rest.slice(value.length);
      }
      const name = token.toLowerCase();
      if (!(name in current.params)) current.params[name] = value;
      continue;
    }
    if (rest.startsWith("=") || (current !== undefined && !separator.includes(",") && Object.keys(current.params).length === 0)) {
      // A token68 right after the scheme (`Negotiate abc==`, `Basic dXNlcg`): it carries no parameters we read.
      skip(/^=*/);
      continue;
    }
    current = { scheme: token.toLowerCase(), params: {} };
    challenges.push(current);
  }
  return challenges;
}

/** The parameters of the Bearer challenge in a `WWW-Authenticate` value, or `undefined` when it has none. @internal */
export function bearerChallenge(header: string | undefined): Record<string, string> | undefined {
  if (header === undefined) return undefined;
  return parseChallenges(header).find((challenge) => challenge.scheme === "bearer")?.params;
}
