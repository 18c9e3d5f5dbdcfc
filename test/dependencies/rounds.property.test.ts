import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { elicit, evaluateNeeds, needs } from "mcp-roundtrip/server";

const regionForm = { type: "object", properties: { region: { type: "string", enum: ["eu", "us"] } }, required: ["region"] } as const;
const sizeForm = { type: "object", properties: { gb: { type: "integer", minimum: 1, maximum: 9 } }, required: ["gb"] } as const;
const yesNo = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;

const declaration = needs()
  .add("region", () => elicit({ message: "Region?", schema: regionForm }))
  .add("size", () => elicit({ message: "Size?", schema: sizeForm }))
  .add("confirm", (_args, { region, size }) =>
    elicit({ message: `Confirm ${region.content?.region ?? region.action} / ${size.content?.gb ?? size.action}?`, schema: yesNo }),
  );

/** What a client may do with one asked question: a valid answer (kept), or something the server must not consume. */
const behaviour = (key: "region" | "size" | "confirm") => {
  const valid =
    key === "region"
      ? fc.constantFrom("eu", "us").map((region) => ({ action: "accept", content: { region } }))
      : key === "size"
        ? fc.integer({ min: 1, max: 9 }).map((gb) => ({ action: "accept", content: { gb } }))
        : fc.boolean().map((yes) => ({ action: "accept", content: { yes } }));
  return fc.oneof(
    valid.map((answer) => ({ valid: true as const, answer })),
    fc.constantFrom({ action: "decline" }, { action: "cancel" }).map((answer) => ({ valid: true as const, answer })),
    fc.constantFrom({ action: "accept", content: { wrong: 1 } }, { action: "maybe" }, "garbage", null).map((answer) => ({ valid: false as const, answer })),
    fc.constant({ valid: false as const, answer: undefined }),
  );
};

describe("rounds under any client behaviour (property)", () => {
  it("asks dependents only after their inputs, never re-asks a kept answer, asks a misfit once more, ends on a second misfit, and resolves to the answers given", async () => {
    const plan = fc.array(fc.record({ region: behaviour("region"), size: behaviour("size"), confirm: behaviour("confirm") }), {
      minLength: 12,
      maxLength: 12,
    });
    await fc.assert(
      fc.asyncProperty(plan, async (rounds) => {
        const kept = new Map<string, unknown>();
        let state: string | undefined;
        let inputResponses: Record<string, unknown> | undefined;
        /** Keys whose last answer did not fit, so they are asked once more; a second misfit ends the call. */
        const misfit = new Set<string>();
        const ending: string[] = [];
        for (const choices of rounds) {
          const evaluation = evaluateNeeds(declaration, {}, { requestState: state, inputResponses, clientCapabilities: { elicitation: {} } });
          if (ending.length > 0) {
            const error = await evaluation.then(
              () => undefined,
              (thrown: unknown) => thrown as { code: number; data: { reason: string; inputKey: string } },
            );
            expect(error).toMatchObject({ code: -32602, data: { reason: "invalid_input_response" } });
            expect(ending).toContain(error!.data.inputKey);
            return;
          }
          const result = await evaluation;
          if (result.status === "ready") {
            expect(kept.size).toBe(3);
            expect(result.values).toEqual(Object.fromEntries(kept));
            return;
          }
          const asked = Object.keys(result.inputRequests);
          expect(asked.length).toBeGreaterThan(0);
          for (const key of asked) expect(kept.has(key)).toBe(false);
          for (const key of asked) {
            const message = (result.inputRequests[key]!.params as { message: string }).message;
            expect(message.includes("(Your previous answer was not accepted: ")).toBe(misfit.has(key));
          }
          if (asked.includes("confirm")) expect(kept.has("region") && kept.has("size")).toBe(true);
          else expect(kept.has("region") && kept.has("size")).toBe(false);
          inputResponses = {};
          for (const key of asked as Array<"region" | "size" | "confirm">) {
            const choice = choices[key];
            if (choice.answer !== undefined) inputResponses[key] = choice.answer;
            if (!choice.valid && choice.answer !== undefined) {
              if (misfit.has(key)) ending.push(key);
              misfit.add(key);
            } else misfit.delete(key);
            if (choice.valid) {
              const answer = choice.answer as { action: string; content?: unknown };
              kept.set(key, answer.action === "accept" ? answer : { action: answer.action });
            }
          }
          state = result.requestState;
        }
      }),
      { numRuns: 150 },
    );
  });

  it("a resolver that swallows the unanswered-read signal is still held back", async () => {
    const swallowing = needs()
      .add("region", () => elicit({ message: "Region?", schema: regionForm }))
      .add("echo", (_args, resolved) => {
        let seen = "nothing";
        try {
          seen = JSON.stringify(resolved.region);
        } catch {
          // An author's over-broad catch: the read of an unanswered dependency is swallowed here.
        }
        return elicit({ message: `Region was ${seen}; confirm?`, schema: yesNo });
      });
    const result = await evaluateNeeds(swallowing, {}, {});
    expect(result.status).toBe("input_required");
    if (result.status === "input_required") expect(Object.keys(result.inputRequests)).toEqual(["region"]);
  });
});
