// Elicitation forms given as a Standard Schema, with the real libraries (zod 4, valibot, arktype): the client is
// sent the library's JSON Schema of the form, an accepted answer is checked against that form and then by the
// library (refinements, transforms, defaults, async checks), and the handler receives the library's output, over
// MRTR and over a 2025 client's back channel. A refused answer is asked once more with the reason, then -32602.
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import * as v from "valibot";
import { toJsonSchema, toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Client, McpError, MODERN_PROTOCOL_VERSION, type ElicitRequestParams, type ElicitResult } from "mcp-roundtrip/client";
import { McpServer, elicit, type StandardSchema } from "mcp-roundtrip/server";

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

/** A server whose one tool asks `schema` as a form and answers with the JSON of what the handler received. */
function asking(schema: StandardSchema, seen: unknown[] = [], extra: { toJsonSchema?: (schema: StandardSchema) => object } = {}) {
  return new McpServer({ name: "forms", version: "1.0.0" }, { logger: { warn() {}, error() {} } }).tool(
    "signup",
    { needs: (need) => need.add("profile", () => elicit({ message: "Your profile?", schema, ...extra })) },
    (_args, { profile }) => {
      seen.push(profile);
      return text(profile.action === "accept" ? JSON.stringify(profile.content) : profile.action);
    },
  );
}

/** A client that answers every form with `content`, recording what it was asked. */
function answering(content: NonNullable<ElicitResult["content"]>, asked: ElicitRequestParams[] = []) {
  return vi.fn(async (params: ElicitRequestParams) => (asked.push(params), { action: "accept" as const, content }));
}

const profile = z.object({
  name: z
    .string()
    .trim()
    .min(2)
    .transform((name) => name.toUpperCase()),
  age: z
    .number()
    .int()
    .refine((age) => age >= 18, "must be an adult"),
  plan: z.enum(["free", "pro"]).default("free"),
});

describe("zod 4 forms", () => {
  it("an MRTR round sends zod's JSON Schema of the input and reaches the handler with zod's output", async () => {
    const seen: unknown[] = [];
    const asked: ElicitRequestParams[] = [];
    const client = await Client.connect(asking(profile, seen), { onElicit: answering({ name: "  ada ", age: 36 }, asked) });
    expect(await client.callTool("signup", {})).toMatchObject(text('{"name":"ADA","age":36,"plan":"free"}'));
    expect(seen).toEqual([{ action: "accept", content: { name: "ADA", age: 36, plan: "free" } }]);
    expect(asked).toHaveLength(1);
    expect((asked[0] as { requestedSchema: unknown }).requestedSchema).toEqual(z.toJSONSchema(profile, { io: "input" }));
  });

  it("a 2025 client's round over the back channel reaches the handler with zod's output", async () => {
    const seen: unknown[] = [];
    const client = await Client.connect(asking(profile, seen), { onElicit: answering({ name: "grace", age: 40, plan: "pro" }), mode: "2025-11-25" });
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(await client.callTool("signup", {})).toMatchObject(text('{"name":"GRACE","age":40,"plan":"pro"}'));
    expect(seen).toEqual([{ action: "accept", content: { name: "GRACE", age: 40, plan: "pro" } }]);
    await client.close();
  });

  it("a refinement failure is asked once more with the reason, then ends with -32602 naming the path", async () => {
    for (const mode of [MODERN_PROTOCOL_VERSION, "2025-11-25"] as const) {
      const seen: unknown[] = [];
      const asked: ElicitRequestParams[] = [];
      const client = await Client.connect(asking(profile, seen), { onElicit: answering({ name: "tim", age: 12 }, asked), mode });
      const error = (await client.callTool("signup", {}).catch((thrown: unknown) => thrown)) as McpError;
      expect(error).toBeInstanceOf(McpError);
      expect(error.code).toBe(-32602);
      expect(error.message).toBe('The answer for input "profile" did not fit its request, again after it was asked once more: /content/age must be an adult');
      expect(asked.map((params) => params.message)).toEqual([
        "Your profile?",
        "Your profile? (Your previous answer was not accepted: /content/age must be an adult)",
      ]);
      expect(seen).toEqual([]);
      await client.close();
    }
  });

  it("still applies the form's own rules first, so a misfit is named as the client was shown it", async () => {
    const server = asking(profile);
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } },
      "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    };
    const call = (id: number, extra: Record<string, unknown> = {}) =>
      server.handle({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, name: "signup", arguments: {}, ...extra } }) as unknown as Promise<{
        result: { requestState: string; inputRequests: Record<string, { params: { message: string } }> };
      }>;
    const first = await call(1);
    const second = await call(2, {
      inputResponses: { profile: { action: "accept", content: { name: "ada", age: 36, extra: 1 } } },
      requestState: first.result.requestState,
    });
    expect(second.result.inputRequests.profile!.params.message).toBe(
      "Your profile? (Your previous answer was not accepted: /content/extra is not a field of the form)",
    );
  });

  it("refuses a nested object when elicit() is called, naming the path", () => {
    const nested = z.object({ name: z.string(), address: z.object({ city: z.string() }) });
    expect(() => elicit({ message: "Where?", schema: nested })).toThrow(
      /^elicit\(\): the zod "schema" converts to JSON Schema that is not a valid elicitation form schema \(\/properties\/address\/type: must be "string", "number", "integer", "boolean" or "array"/,
    );
  });

  it("converts a schema once, so every round asks the very same question", () => {
    const first = elicit({ message: "Your profile?", schema: profile });
    const again = elicit({ message: "Your profile?", schema: profile });
    expect(again.digest).toBe(first.digest);
    expect((again.request.params as { requestedSchema: unknown }).requestedSchema).toBe((first.request.params as { requestedSchema: unknown }).requestedSchema);
    expect(elicit({ message: "Your profile?", schema: profile.extend({ note: z.string().optional() }) }).digest).not.toBe(first.digest);
  });

  it("reads a kept answer through zod again in later rounds, so a question built on it sees the transformed value", async () => {
    const yes = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
    const asked: string[] = [];
    const server = new McpServer({ name: "forms", version: "1.0.0" }).tool(
      "signup",
      {
        needs: (need) =>
          need
            .add("profile", () => elicit({ message: "Your profile?", schema: profile }))
            .add("confirm", (_args, { profile: answer }) => elicit({ message: `Sign up ${answer.content?.name} (${answer.content?.plan})?`, schema: yes })),
      },
      (_args, { profile: answer, confirm }) => text(`${answer.content?.name}: ${confirm.content?.yes}`),
    );
    const client = await Client.connect(server, {
      onElicit: async (params): Promise<ElicitResult> => {
        asked.push(params.message);
        return { action: "accept", content: params.message === "Your profile?" ? { name: "ada", age: 30 } : { yes: true } };
      },
    });
    expect(await client.callTool("signup", {})).toMatchObject(text("ADA: true"));
    expect(asked).toEqual(["Your profile?", "Sign up ADA (free)?"]);
  });

  it("refuses a schema zod cannot express as JSON Schema when elicit() is called", () => {
    expect(() => elicit({ message: "When?", schema: z.object({ at: z.date() }) })).toThrow(
      /^elicit\(\): "schema": the zod schema cannot be expressed as JSON Schema/,
    );
  });

  it("awaits an async refinement", async () => {
    const unique = z.object({ handle: z.string().refine(async (handle) => handle !== "taken", "is taken") });
    const client = await Client.connect(asking(unique), { onElicit: answering({ handle: "ada" }) });
    expect(await client.callTool("signup", {})).toMatchObject(text('{"handle":"ada"}'));
    const refused = await Client.connect(asking(unique), { onElicit: answering({ handle: "taken" }) });
    await expect(refused.callTool("signup", {})).rejects.toThrow("/content/handle is taken");
  });
});

describe("valibot forms", () => {
  const greet = v.object({ name: v.pipe(v.string(), v.trim(), v.minLength(2)), times: v.optional(v.number(), 1) });

  it("takes a bare valibot schema with elicit()'s toJsonSchema, and names the option without it", async () => {
    const seen: unknown[] = [];
    const asked: ElicitRequestParams[] = [];
    const convert = (schema: StandardSchema) => toJsonSchema(schema as typeof greet, { errorMode: "ignore" });
    const client = await Client.connect(asking(greet, seen, { toJsonSchema: convert }), { onElicit: answering({ name: " Ada " }, asked) });
    expect(await client.callTool("signup", {})).toMatchObject(text('{"name":"Ada","times":1}'));
    expect((asked[0] as { requestedSchema: unknown }).requestedSchema).toEqual(convert(greet));
    const bare = v.object({ name: v.string() });
    expect(() => elicit({ message: "Name?", schema: bare })).toThrow(
      /^elicit\(\): "schema" is a valibot schema without a JSON Schema converter, so the client could not be sent its form: .*toStandardJsonSchema.*elicit\(\)'s toJsonSchema option$/,
    );
  });

  it("a schema wrapped as Standard JSON Schema needs no converter; a 2025 client's round gets valibot's output", async () => {
    const seen: unknown[] = [];
    const client = await Client.connect(
      asking(toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(2)), times: v.optional(v.number(), 2) })), seen),
      {
        onElicit: answering({ name: "Lin" }),
        mode: "2025-11-25",
      },
    );
    expect(await client.callTool("signup", {})).toMatchObject(text('{"name":"Lin","times":2}'));
    await client.close();
  });
});

describe("arktype forms", () => {
  const order = type({ count: "string.numeric.parse", even: type("number").narrow((n) => n % 2 === 0) });

  it("runs arktype's morphs before the handler, over MRTR and a 2025 client", async () => {
    for (const mode of [MODERN_PROTOCOL_VERSION, "2025-11-25"] as const) {
      const seen: unknown[] = [];
      const client = await Client.connect(asking(order, seen), { onElicit: answering({ count: "21", even: 4 }), mode });
      expect(await client.callTool("signup", {})).toMatchObject(text('{"count":21,"even":4}'));
      expect(seen).toEqual([{ action: "accept", content: { count: 21, even: 4 } }]);
      await client.close();
    }
  });

  it("a narrow that fails is asked once more, then -32602 naming /content/even", async () => {
    const client = await Client.connect(asking(order), { onElicit: answering({ count: "3", even: 3 }) });
    const error = (await client.callTool("signup", {}).catch((thrown: unknown) => thrown)) as McpError;
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/asked once more: \/content\/even /);
  });
});
