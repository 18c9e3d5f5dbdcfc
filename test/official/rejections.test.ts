// Through the official server's own seam (ServerOptions.requestState.verify),
// every token our codec must refuse gets their fixed -32602, while the real
// reason reaches our logger only: tampered, replayed for other arguments,
// presented by another principal, expired, sealed for another audience, and
// tokens the codec never minted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRequestStateCodec } from "@modelcontextprotocol/server";
import { Client, isInputRequired, McpError } from "mcp-roundtrip/client";
import { MARKER, SECRET, startOfficialServer, type Fixture } from "./fixture.js";

const ANSWER = { city: { action: "accept" as const, content: { city: "Porto" } } };

let weather: Fixture;
let billing: Fixture; // same key, another audience
beforeAll(async () => {
  [weather, billing] = await Promise.all([startOfficialServer("weather-official"), startOfficialServer("billing-official")]);
});
afterAll(() => Promise.all([weather.close(), billing.close()]));

/** Connects as `subject` (or unauthenticated) to a fixture; every question is declined, rounds are driven by hand. */
async function connect(fixture: Fixture, subject?: string): Promise<Client> {
  return Client.connect(fixture.url(subject), { onElicit: () => ({ action: "decline" }) });
}

/** The token of a first round of forecast(text), as `subject`. */
async function firstRound(fixture: Fixture, subject: string | undefined, text: string): Promise<string> {
  const client = await connect(fixture, subject);
  try {
    const first = await client.session.callTool("forecast", { text }, { allowInputRequired: true });
    if (!isInputRequired(first) || typeof first.requestState !== "string") throw new Error("expected a sealed first round");
    return first.requestState;
  } finally {
    await client.close();
  }
}

/** The retry's outcome: the result, or the McpError it failed with. */
async function retry(fixture: Fixture, subject: string | undefined, text: string, requestState: string): Promise<unknown> {
  const client = await connect(fixture, subject);
  try {
    return await client.session.callTool("forecast", { text }, { allowInputRequired: true, inputResponses: ANSWER, requestState });
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
}

/** Asserts the fixed wire rejection, and that the fixture's logger, alone, saw `reason`. */
function expectRejected(outcome: unknown, fixture: Fixture, reason: string): void {
  expect(outcome).toBeInstanceOf(McpError);
  const error = outcome as McpError;
  expect({ code: error.code, message: error.message, data: error.data }).toEqual({
    code: -32602,
    message: "Invalid or expired requestState",
    data: { reason: "invalid_request_state" },
  });
  expect(fixture.rejections.map((rejection) => rejection.reason)).toContain(reason);
  // Their seam reports through onerror with the thrown message, which is the fixed text too.
  expect(fixture.errors.at(-1)).toMatch(/^requestState verification rejected (tools\/call|prompts\/get): Invalid or expired requestState$/);
  expect(fixture.errors.join("\n")).not.toMatch(new RegExp(`${reason}:|${MARKER}`));
}

describe("a token the official server must refuse gets -32602, the reason going to our logger", () => {
  it("accepts the untouched token (the control)", async () => {
    const token = await firstRound(weather, "alice", "control");
    const result = await retry(weather, "alice", "control", token);
    expect(result).toMatchObject({ content: [{ type: "text", text: "control in Porto: sunny (sealed)" }] });
  });

  it("a tampered token", async () => {
    const token = await firstRound(weather, "alice", "tamper");
    const middle = Math.floor(token.length / 2);
    const tampered = token.slice(0, middle) + (token[middle] === "A" ? "B" : "A") + token.slice(middle + 1);
    expectRejected(await retry(weather, "alice", "tamper", tampered), weather, "unseal_failed");
  });

  it("a token replayed for other arguments", async () => {
    const token = await firstRound(weather, "alice", "transfer 10");
    expectRejected(await retry(weather, "alice", "transfer 10000", token), weather, "arguments_mismatch");
  });

  it("a token presented by another principal, or by nobody", async () => {
    const token = await firstRound(weather, "alice", "mine");
    expectRejected(await retry(weather, "bob", "mine", token), weather, "principal_mismatch");
    expectRejected(await retry(weather, undefined, "mine", token), weather, "principal_unexpected");
    const anonymous = await firstRound(weather, undefined, "nobody's");
    expectRejected(await retry(weather, "alice", "nobody's", anonymous), weather, "principal_missing");
  });

  it("an expired token", async () => {
    const token = await firstRound(weather, "alice", "later");
    weather.advance(601 + 60); // ttl + clock skew
    try {
      expectRejected(await retry(weather, "alice", "later", token), weather, "expired");
    } finally {
      weather.advance(-(601 + 60));
    }
  });

  it("a token for another audience, under the same key", async () => {
    const token = await firstRound(weather, "alice", "cross-service");
    expectRejected(await retry(billing, "alice", "cross-service", token), billing, "audience_mismatch");
  });

  it("a token for another method or target", async () => {
    const token = await firstRound(weather, "alice", "storms");
    const client = await connect(weather, "alice");
    try {
      const asPrompt = await client.session
        .getPrompt("brief", { text: "storms" }, { allowInputRequired: true, inputResponses: ANSWER, requestState: token })
        .catch((error: unknown) => error);
      expectRejected(asPrompt, weather, "method_mismatch");
    } finally {
      await client.close();
    }
  });

  it("tokens the codec never minted: their HMAC codec's under the same key, a bare string, an empty one", async () => {
    const hmac = await createRequestStateCodec({ key: SECRET }).mint({ text: "forged", marker: MARKER });
    expectRejected(await retry(weather, "alice", "forged", hmac), weather, "unseal_failed");
    for (const forged of ["hello", ""]) {
      const outcome = await retry(weather, "alice", "forged", forged);
      expect((outcome as McpError).code).toBe(-32602);
    }
  });
});
