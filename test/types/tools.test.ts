// Type-level tests of typed tools, prompts and resources: `tsc -p tsconfig.json` (npm test's typecheck) fails
// when an inference stops holding or an @ts-expect-error no longer meets an error; vitest lists them too.
import { describe, expect, expectTypeOf, it } from "vitest";
import * as z from "zod";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import {
  McpServer,
  elicit,
  inputRequired,
  needs,
  runAsTask,
  jsonSchema,
  type DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired,
  type DependentToolHandler,
  type ElicitContent,
  type FromSchema,
  type JsonSchemaObject,
  type MaybePromise,
  type PromptArgs,
  type TemplateVariables,
  type ToolArgs,
  type ToolConfig,
  type ToolResult,
  type ToolStructuredContent,
} from "mcp-roundtrip/server";

const server = new McpServer({ name: "typed", version: "1.0.0" });
const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

describe("FromSchema, the one JSON Schema reader", () => {
  it("reads properties, required, enum, const, nullable type arrays, formats and integers", () => {
    const schema = {
      type: "object",
      properties: {
        name: { type: "string", format: "email" },
        age: { type: "integer" },
        plan: { enum: ["free", "pro"] },
        kind: { const: "user" },
        nickname: { type: ["string", "null"] },
        admin: { type: "boolean" },
        nothing: { type: "null" },
      },
      required: ["name", "kind"],
    } as const;
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{
      name: string;
      kind: "user";
      age?: number;
      plan?: "free" | "pro";
      nickname?: string | null;
      admin?: boolean;
      nothing?: null;
    }>();
  });

  it("reads arrays, tuples (prefixItems and draft-07 items arrays), nested objects and unions", () => {
    const schema = {
      type: "object",
      properties: {
        tags: { type: "array", items: { type: "string" } },
        point: { type: "array", prefixItems: [{ type: "number" }, { type: "number" }], items: false },
        legacy: { type: "array", items: [{ type: "string" }, { type: "boolean" }], additionalItems: false },
        open: { type: "array", prefixItems: [{ type: "string" }] },
        owner: { type: "object", properties: { id: { type: "string" }, roles: { type: "array", items: { enum: ["a", "b"] } } }, required: ["id"] },
        either: { oneOf: [{ type: "string" }, { type: "object", properties: { n: { type: "number" } }, required: ["n"] }] },
        any: { anyOf: [{ type: "number" }, { type: "null" }] },
        both: {
          allOf: [
            { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
            { type: "object", properties: { b: { type: "number" } }, required: ["b"] },
          ],
        },
      },
      required: ["tags", "point", "legacy", "open", "owner", "either", "any", "both"],
    } as const;
    type Read = FromSchema<typeof schema>;
    expectTypeOf<Read["tags"]>().toEqualTypeOf<string[]>();
    expectTypeOf<Read["point"]>().toEqualTypeOf<[number, number]>();
    expectTypeOf<Read["legacy"]>().toEqualTypeOf<[string, boolean]>();
    expectTypeOf<Read["open"]>().toEqualTypeOf<[string, ...unknown[]]>();
    expectTypeOf<Read["owner"]>().toEqualTypeOf<{ id: string; roles?: ("a" | "b")[] }>();
    expectTypeOf<Read["either"]>().toEqualTypeOf<string | { n: number }>();
    expectTypeOf<Read["any"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Read["both"]>().toMatchTypeOf<{ a: string; b: number }>();
  });

  it("merges the keywords around oneOf into each branch (required alternatives)", () => {
    const schema = {
      type: "object",
      properties: { id: { type: "string" }, email: { type: "string" } },
      oneOf: [{ required: ["id"] }, { required: ["email"] }],
    } as const;
    expectTypeOf<FromSchema<typeof schema>>().toEqualTypeOf<{ id: string; email?: string } | { id?: string; email: string }>();
  });

  it("reads additionalProperties: closed by default and when false, an index signature when true or a schema", () => {
    const closed = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: false } as const;
    const counts = { type: "object", additionalProperties: { type: "number" } } as const;
    const open = { type: "object", properties: { a: { type: "string" } }, required: ["a"], additionalProperties: true } as const;
    expectTypeOf<FromSchema<typeof closed>>().toEqualTypeOf<{ a: string }>();
    expectTypeOf<FromSchema<typeof counts>>().toEqualTypeOf<{ [key: string]: number }>();
    expectTypeOf<FromSchema<typeof open>>().toEqualTypeOf<{ [key: string]: unknown; a: string }>();
    expectTypeOf<FromSchema<{ readonly type: "object" }>>().toEqualTypeOf<{ [key: string]: unknown }>();
  });

  it("reads boolean schemas, and a widened schema as unknown", () => {
    expectTypeOf<FromSchema<true>>().toBeUnknown();
    expectTypeOf<FromSchema<false>>().toBeNever();
    expectTypeOf<FromSchema<Record<string, unknown>>>().toBeUnknown();
    expectTypeOf<FromSchema<{ type: string }>>().toBeUnknown();
  });

  it("is the reader of elicitation forms too", () => {
    const form = { type: "object", properties: { yes: { type: "boolean" }, note: { type: "string" } }, required: ["yes"] } as const;
    expectTypeOf<ElicitContent<typeof form>>().toEqualTypeOf<{ yes: boolean; note?: string }>();
    expectTypeOf<ElicitContent<typeof form>>().toEqualTypeOf<FromSchema<typeof form>>();
  });
});

describe("McpServer.tool with a JSON Schema", () => {
  it("infers args from an inline schema, without as const", () => {
    server.tool("add", { inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }, ({ a, b }) => {
      expectTypeOf(a).toEqualTypeOf<number>();
      expectTypeOf(b).toEqualTypeOf<number>();
      return text(String(a + b));
    });
  });

  it("infers args from an as const schema held in a variable", () => {
    const greet = { type: "object", properties: { name: { type: "string" }, loud: { type: "boolean" } }, required: ["name"] } as const;
    expectTypeOf<ToolArgs<typeof greet>>().toEqualTypeOf<{ name: string; loud?: boolean }>();
    server.tool("greet", { inputSchema: greet }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; loud?: boolean }>();
      return text(args.loud === true ? args.name.toUpperCase() : args.name);
    });
  });

  it("refuses an optional argument used as defined, a misspelt one, and a wrong type", () => {
    server.tool("strict", { inputSchema: { type: "object", properties: { name: { type: "string" }, count: { type: "integer" } }, required: ["name"] } }, (args) => {
      // @ts-expect-error count is optional: possibly undefined
      const doubled: number = args.count * 2;
      // @ts-expect-error there is no argument "nmae"
      const misspelt = args.nmae;
      // @ts-expect-error name is a string
      const wrong: number = args.name;
      return text(`${doubled}${String(misspelt)}${wrong}`);
    });
  });

  it("keeps Record<string, unknown> for a widened schema and for no schema", () => {
    const widened: Record<string, unknown> = { type: "object" };
    server.tool("wide", { inputSchema: widened }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return text("");
    });
    // Written without as const in a variable, the literal widens (type: string): untyped, not wrong.
    const loose = { type: "object", properties: { a: { type: "number" } } };
    server.tool("loose", { inputSchema: loose }, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return text("");
    });
    server.tool("bare", {}, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return text("");
    });
  });

  it("keeps the untyped handler for a config typed as plain ToolConfig", () => {
    const config: ToolConfig = { inputSchema: { type: "object" }, description: "shared" };
    server.tool("plain-config", config, (args) => {
      expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
      return text("no structuredContent needed");
    });
  });

  it("types structuredContent from outputSchema and refuses the wrong shape", () => {
    const input = { type: "object", properties: { values: { type: "array", items: { type: "number" } } }, required: ["values"] } as const;
    const output = { type: "object", properties: { total: { type: "number" } }, required: ["total"] } as const;
    expectTypeOf<ToolStructuredContent<typeof output>>().toEqualTypeOf<{ total: number }>();
    // content may be left out: it is filled with the JSON of structuredContent.
    server.tool("sum", { inputSchema: input, outputSchema: output }, ({ values }) => ({ structuredContent: { total: values.reduce((a, b) => a + b, 0) } }));
    // An error result needs no structuredContent; a task escalation is fine too.
    server.tool("sum-or-fail", { inputSchema: input, outputSchema: output }, ({ values }) =>
      values.length === 0 ? { content: [{ type: "text", text: "nothing to add" }], isError: true } : runAsTask(async () => text("later")),
    );
    // @ts-expect-error total must be a number
    server.tool("sum-wrong", { inputSchema: input, outputSchema: output }, () => ({ structuredContent: { total: "3" } }));
    // @ts-expect-error a successful result must carry structuredContent
    server.tool("sum-missing", { outputSchema: output }, () => text("3"));
  });

  it("types args in the needs overload, for the resolvers and the handler", () => {
    const confirm = { type: "object", properties: { yes: { type: "boolean" } }, required: ["yes"] } as const;
    server.tool(
      "deploy",
      {
        inputSchema: { type: "object", properties: { app: { type: "string" } }, required: ["app"] },
        outputSchema: { type: "object", properties: { deployed: { type: "boolean" } }, required: ["deployed"] },
        needs: (need) =>
          need.add("confirm", (args) => (expectTypeOf(args).toEqualTypeOf<{ app: string }>(), elicit({ message: `Deploy ${args.app}?`, schema: confirm }))),
      },
      (args, { confirm: answer }) => {
        expectTypeOf(args).toEqualTypeOf<{ app: string }>();
        expectTypeOf(answer.content).toEqualTypeOf<{ yes: boolean } | undefined>();
        return { structuredContent: { deployed: answer.action === "accept" && answer.content.yes } };
      },
    );
    // A plain needs() declaration with a schema: the schema types the handler.
    server.tool(
      "shared",
      { inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] }, needs: needs().add("n", () => 1) },
      (args, { n }) => {
        expectTypeOf(args).toEqualTypeOf<{ id: string }>();
        return text(args.id + n);
      },
    );
  });

  it("takes an as const form in a hand-built inputRequired", () => {
    const confirm = { type: "object", properties: { yes: { type: "boolean" }, size: { type: "string", enum: ["s", "m"] } }, required: ["yes"] } as const;
    server.tool("by-hand", { inputSchema: { type: "object", properties: { app: { type: "string" } }, required: ["app"] } }, (args, ctx) =>
      ctx.inputResponses?.confirm === undefined
        ? inputRequired({ inputRequests: { confirm: { method: "elicitation/create", params: { message: `Deploy ${args.app}?`, requestedSchema: confirm } } } })
        : text("done"),
    );
  });
});

describe("McpServer.tool errors at the member at fault", () => {
  // Each @ts-expect-error sits on the line of the member at fault: were tsc to report the mismatch at the handler
  // (an overload or union error naming content or isError), the directive would meet no error and tsc would fail.
  const counter = { type: "object", properties: { count: { type: "integer" }, kind: { enum: ["a", "b"] } }, required: ["count"] } as const;

  it("a wrong structuredContent member, a missing one, a bad enum value: JSON Schema", () => {
    server.tool("wrong-type", { outputSchema: counter }, () => ({
      structuredContent: {
        // @ts-expect-error count is an integer
        count: "4",
      },
    }));
    server.tool("wrong-enum", { outputSchema: counter }, () => ({
      structuredContent: {
        count: 4,
        // @ts-expect-error kind is "a" or "b"
        kind: "c",
      },
    }));
    server.tool("missing-member", { outputSchema: counter }, () => ({
      // @ts-expect-error count is required
      structuredContent: {},
    }));
    // With content given too, and with declared needs.
    server.tool("with-content", { outputSchema: counter }, () => ({
      content: [{ type: "text", text: "4" }],
      structuredContent: {
        // @ts-expect-error count is an integer
        count: "4",
      },
    }));
    server.tool("with-needs", { outputSchema: counter, needs: (need) => need.add("n", () => 4) }, (_args, { n }) => ({
      structuredContent: {
        // @ts-expect-error count is an integer
        count: String(n),
      },
    }));
  });

  it("a wrong structuredContent member: Standard Schema (zod)", () => {
    server.tool("zod-member", { outputSchema: z.object({ count: z.number().int() }) }, () => ({
      structuredContent: {
        // @ts-expect-error count is a number
        count: "4",
      },
    }));
  });

  it("an error result still needs no structuredContent", () => {
    server.tool("fails", { outputSchema: counter }, () => ({ content: [{ type: "text", text: "no count" }], isError: true }));
  });

  it("a handler with needs that returns inputRequired(...) names the fix", () => {
    server.tool(
      "mixed",
      { needs: (need) => need.add("n", () => 1) },
      // @ts-expect-error DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired: needs and a hand-built round do not mix
      (_args, { n }, ctx) => (ctx.inputResponses === undefined ? inputRequired({ inputRequests: { q: { method: "roots/list", params: {} } } }) : text(String(n))),
    );
    expectTypeOf<ReturnType<DependentToolHandler<{}, {}>>>().toEqualTypeOf<MaybePromise<ToolResult | DeclareTheQuestionInNeedsOrDropNeedsToReturnInputRequired>>();
  });
});

describe("required entries that name no property", () => {
  it("fail to compile at the entry, in inputSchema, outputSchema and nested schemas", () => {
    expect(() =>
      server.tool(
        "typo-in",
        {
          inputSchema: {
            type: "object",
            properties: { name: { type: "string" } },
            // @ts-expect-error "nmae" names no property
            required: ["nmae"],
          },
        },
        () => text(""),
      ),
    ).toThrow(/names no property/);
    expect(() =>
      server.tool(
        "typo-out",
        {
          outputSchema: {
            type: "object",
            properties: {
              owner: {
                type: "object",
                properties: { id: { type: "string" } },
                // @ts-expect-error "ID" names no property of owner
                required: ["ID"],
              },
            },
          },
        },
        () => ({ structuredContent: { owner: { id: "1" } } }),
      ),
    ).toThrow(/names no property/);
    expect(() =>
      server.tool(
        "typo-items",
        {
          inputSchema: {
            type: "object",
            properties: {
              rows: {
                type: "array",
                items: {
                  type: "object",
                  properties: { id: { type: "string" } },
                  // @ts-expect-error "key" names no property of a row
                  required: ["key"],
                },
              },
            },
          },
        },
        () => text(""),
      ),
    ).toThrow(/names no property/);
  });

  it("compile where the schema admits other members, in a combinator branch naming its parent's, and as a widened list (registration checks that one)", () => {
    server.tool(
      "open",
      { inputSchema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: { type: "number" }, required: ["a", "b"] } },
      (args) => text(String(args.b)),
    );
    server.tool(
      "branches",
      { inputSchema: { type: "object", properties: { id: { type: "string" }, email: { type: "string" } }, oneOf: [{ required: ["id"] }, { required: ["email"] }] } },
      () => text(""),
    );
    const widened = { type: "object", properties: { a: { type: "string" } }, required: ["b"] as string[] } as const;
    // Not checked by tsc (the list is string[]): registration throws instead.
    expect(() => server.tool("widened-required", { inputSchema: widened }, () => text(""))).toThrow(/required entry "b"/);
  });
});

describe("jsonSchema(): a schema in a variable that keeps its literal type", () => {
  it("types args and structuredContent without as const", () => {
    const point = jsonSchema({ type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] });
    const norm = jsonSchema({ type: "object", properties: { norm: { type: "number" } }, required: ["norm"] });
    expectTypeOf<FromSchema<typeof point>>().toEqualTypeOf<{ x: number; y: number }>();
    server.tool("norm", { inputSchema: point, outputSchema: norm }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ x: number; y: number }>();
      return { structuredContent: { norm: Math.hypot(args.x, args.y) } };
    });
    // Without it, the same literal in a variable widens: untyped.
    const loose = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };
    expectTypeOf<ToolArgs<typeof loose>>().toEqualTypeOf<Record<string, unknown>>();
  });

  it("refuses a required entry that names no property, at the entry", () => {
    expect(() =>
      jsonSchema({
        type: "object",
        properties: { x: { type: "number" } },
        // @ts-expect-error "z" names no property
        required: ["x", "z"],
      }),
    ).toThrow(/required entry "z"/);
  });

  it("keeps schemas typed as plain object, JsonSchemaObject or an interface working, untyped", () => {
    interface Draft7Schema {
      type?: string;
      properties?: Record<string, Draft7Schema>;
      required?: string[];
    }
    const asObject: object = { type: "object" };
    const asRecord: JsonSchemaObject = { type: "object" };
    const asInterface: Draft7Schema = { type: "object", properties: { a: { type: "string" } } };
    for (const [name, schema] of [
      ["as-object", asObject],
      ["as-record", asRecord],
      ["as-interface", asInterface],
    ] as const) {
      server.tool(name, { inputSchema: schema, outputSchema: schema }, (args) => {
        expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
        return { structuredContent: { anything: args } };
      });
    }
  });
});

describe("McpServer.tool with Standard Schema", () => {
  it("zod 4: args are the schema's output (transforms and defaults applied), structuredContent its input", () => {
    const input = z.object({ city: z.string().min(1), days: z.number().int().default(3), when: z.string().transform((s) => new Date(s)) });
    const output = z.object({ high: z.number() });
    server.tool("zod-forecast", { inputSchema: input, outputSchema: output }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ city: string; days: number; when: Date }>();
      return { structuredContent: { high: args.days } };
    });
    // @ts-expect-error high must be a number
    server.tool("zod-wrong", { inputSchema: input, outputSchema: output }, () => ({ structuredContent: { high: "hot" } }));
  });

  it("valibot (wrapped with toStandardJsonSchema): args and structuredContent", () => {
    const input = toStandardJsonSchema(v.object({ name: v.pipe(v.string(), v.minLength(1)), tags: v.optional(v.array(v.string())) }));
    const output = toStandardJsonSchema(v.object({ greeting: v.string() }));
    server.tool("valibot-greet", { inputSchema: input, outputSchema: output }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ name: string; tags?: string[] | undefined }>();
      return { structuredContent: { greeting: `hi ${args.name}` } };
    });
    // @ts-expect-error greeting must be a string
    server.tool("valibot-wrong", { inputSchema: input, outputSchema: output }, () => ({ structuredContent: { greeting: 1 } }));
  });

  it("arktype: args and structuredContent", () => {
    const input = type({ n: "number", "label?": "string" });
    const output = type({ square: "number" });
    server.tool("ark-square", { inputSchema: input, outputSchema: output }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ n: number; label?: string }>();
      return { structuredContent: { square: args.n * args.n } };
    });
    // @ts-expect-error square must be a number
    server.tool("ark-wrong", { inputSchema: input, outputSchema: output }, () => ({ structuredContent: { square: "4" } }));
  });

  it("types args in the needs overload with a Standard Schema", () => {
    server.tool("zod-needs", { inputSchema: z.object({ app: z.string() }), needs: (need) => need.add("n", (args) => args.app.length) }, (args, { n }) => {
      expectTypeOf(args).toEqualTypeOf<{ app: string }>();
      expectTypeOf(n).toEqualTypeOf<number>();
      return text(args.app);
    });
  });
});

describe("prompts and resources", () => {
  it("types a prompt's args from its arguments list", () => {
    expectTypeOf<PromptArgs<readonly [{ readonly name: "topic"; readonly required: true }, { readonly name: "tone" }]>>().toEqualTypeOf<{
      topic: string;
      tone?: string;
    }>();
    server.prompt("brief", { arguments: [{ name: "topic", required: true }, { name: "tone" }] }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string; tone?: string }>();
      // @ts-expect-error tone is optional
      const shout: string = args.tone.toUpperCase();
      return [{ role: "user", content: { type: "text", text: `${args.topic} ${shout}` } }];
    });
    server.prompt("brief-needs", { arguments: [{ name: "topic", required: true }], needs: (need) => need.add("n", (args) => args.topic.length) }, (args, { n }) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string }>();
      return [{ role: "user", content: { type: "text", text: `${args.topic} ${n}` } }];
    });
  });

  it("types a prompt's args from a Standard Schema of its arguments", () => {
    server.prompt("zod-brief", { arguments: z.object({ topic: z.string(), words: z.coerce.number().optional() }) }, (args) => {
      expectTypeOf(args).toEqualTypeOf<{ topic: string; words?: number | undefined }>();
      return [{ role: "user", content: { type: "text", text: args.topic } }];
    });
  });

  it("types a template literal's variables", () => {
    expectTypeOf<TemplateVariables<"report://{quarter}">>().toEqualTypeOf<{ quarter: string }>();
    expectTypeOf<TemplateVariables<"file:///{+path}{?rev}">>().toEqualTypeOf<{ path: string; rev?: string | string[] }>();
    expectTypeOf<TemplateVariables<"tree://{/segments*}">>().toEqualTypeOf<{ segments: string[] }>();
    server.resource("report://{quarter}", {}, (_uri, variables) => {
      expectTypeOf(variables).toEqualTypeOf<{ quarter: string }>();
      // @ts-expect-error the template has no variable "year"
      return `report ${variables.year}`;
    });
  });
});
