/**
 * What `mode: "auto"` learned about each server this process talked to.
 * "The era determination is a property of the server, not of an individual
 * request. Clients SHOULD cache the result for the lifetime of the server
 * process (stdio) or origin (HTTP), and MAY persist it across restarts"
 * (2026-07-28 basic/versioning, "Backward Compatibility"): so a second
 * connection to a 2025-era server skips the probe, and an application can
 * persist `client.negotiated` and pass it back as `negotiated`.
 *
 * @internal
 */

/** What a connection settled on, in a form an application can store (it is plain JSON). */
export interface NegotiatedOutcome {
  /** The version agreed: `"2026-07-28"`, or the handshake-era version `initialize` agreed. */
  readonly protocolVersion: string;
}

/** Servers remembered at most; the oldest is forgotten first. */
const MAX_ENTRIES = 1_000;

const outcomes = new Map<string, NegotiatedOutcome>();

/** The outcome remembered for `key`, if any. @internal */
export function recall(key: string | undefined): NegotiatedOutcome | undefined {
  return key === undefined ? undefined : outcomes.get(key);
}

/** Remembers the outcome for `key` (a server URL or command line). @internal */
export function remember(key: string | undefined, outcome: NegotiatedOutcome): void {
  if (key === undefined) return;
  outcomes.delete(key);
  outcomes.set(key, Object.freeze({ protocolVersion: outcome.protocolVersion }));
  if (outcomes.size > MAX_ENTRIES) outcomes.delete(outcomes.keys().next().value!);
}

/** Forgets `key`, after its remembered outcome turned out wrong. @internal */
export function forget(key: string | undefined): void {
  if (key !== undefined) outcomes.delete(key);
}
