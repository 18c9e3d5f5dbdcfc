import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Client, InputRequiredRoundsExceeded } from "mcp-roundtrip/client";
import { askRegion, fakeServer, text } from "./fake-server.js";

// A scripted exchange: each round either asks under some keys, or carries state only.
const roundArb = fc.record({
  keys: fc.uniqueArray(fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), fc.constantFrom("__proto__", "constructor", "toString")), { maxLength: 4 }),
  state: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
});

describe("automatic loop, any sequence of rounds", () => {
  it("answers every key it was asked, echoes each state exactly, and counts rounds against the limit", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(roundArb, { maxLength: 8 }), fc.integer({ min: 0, max: 8 }), async (rounds, maxRounds) => {
        // A round with neither requests nor state is not a valid input_required; give it state.
        const script = rounds.map((round) => (round.keys.length === 0 && round.state === undefined ? { ...round, state: "" } : round));
        const server = fakeServer((_params, _request, index) => {
          const round = script[index];
          if (round === undefined) return text("done");
          const result: Record<string, unknown> = { resultType: "input_required" };
          // Built through JSON, as a wire decoder would, so "__proto__" is an ordinary key.
          if (round.keys.length > 0) result.inputRequests = JSON.parse(JSON.stringify(Object.fromEntries(round.keys.map((key) => [key, askRegion]))));
          if (round.state !== undefined) result.requestState = round.state;
          return result;
        });
        const client = await Client.connect(server, {
          onElicit: (_params, { key }) => ({ action: "accept", content: { region: `answer-for-${key}` } }),
          inputRequiredMaxRounds: maxRounds,
          stateOnlyBackoff: { initialMs: 0, maxMs: 0 },
        });
        const outcome = await client.callTool("t", { fixed: true }).then(
          (result) => result,
          (error: unknown) => error,
        );
        const sent = server.calls;
        if (script.length <= maxRounds) {
          expect(outcome).toMatchObject({ content: [{ text: "done" }] });
          expect(sent).toHaveLength(script.length + 1);
        } else {
          expect(outcome).toBeInstanceOf(InputRequiredRoundsExceeded);
          expect((outcome as InputRequiredRoundsExceeded).rounds).toBe(maxRounds);
          expect(sent).toHaveLength(maxRounds + 1);
        }
        expect(new Set(server.received.map((request) => request.id)).size).toBe(server.received.length);
        for (let i = 1; i < sent.length; i++) {
          const previous = script[i - 1]!;
          const params = sent[i]!.params!;
          expect(params.name).toBe("t");
          expect(params.arguments).toEqual({ fixed: true });
          if (previous.state === undefined) expect("requestState" in params).toBe(false);
          else expect(params.requestState).toBe(previous.state);
          if (previous.keys.length === 0) expect("inputResponses" in params).toBe(false);
          else {
            expect(Object.keys(JSON.parse(JSON.stringify(params.inputResponses))).sort()).toEqual([...previous.keys].sort());
            for (const key of previous.keys) {
              expect(Object.getOwnPropertyDescriptor(params.inputResponses, key)!.value.content.region).toBe(`answer-for-${key}`);
            }
          }
        }
      }),
      { numRuns: 150 },
    );
  });
});
