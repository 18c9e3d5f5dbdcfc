/**
 * The "everything" server: every fixture the MCP conformance suite's server
 * scenarios look for, for both generations on one endpoint (2026-07-28, and
 * 2025-11-25 sessions), built with the public API of mcp-roundtrip only.
 * Run it with `main.ts` (HTTP or stdio).
 */
import { elicit, inputRequired, McpServer, sample, type ServerRequestContext } from "mcp-roundtrip/server";
import type { LoggingLevel } from "mcp-roundtrip/types";
import { registerTaskTools } from "./tasks.js";

/** A 1×1 red PNG. */
export const TEST_IMAGE_BASE64 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
/** A minimal WAV header with two bytes of silence. */
export const TEST_AUDIO_BASE64 = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

const NO_ARGS = { type: "object", properties: {} } as const;

const text = (value: string) => ({ content: [{ type: "text" as const, text: value }] });

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });

/** Reads a string field out of an accepted elicitation answer. */
function answerField(response: unknown, field: string): string | undefined {
  const content = (response as { action?: string; content?: Record<string, unknown> } | undefined)?.content;
  const value = content?.[field];
  return typeof value === "string" ? value : undefined;
}

function isAcceptedElicitation(response: unknown): boolean {
  return typeof response === "object" && response !== null && (response as { action?: unknown }).action === "accept";
}

function askName(message = "What is your name?") {
  return {
    method: "elicitation/create" as const,
    params: {
      message,
      requestedSchema: { type: "object" as const, properties: { name: { type: "string" as const } }, required: ["name"] },
    },
  };
}

const askCapital = {
  method: "sampling/createMessage" as const,
  params: {
    messages: [{ role: "user" as const, content: { type: "text" as const, text: "What is the capital of France?" } }],
    maxTokens: 100,
  },
};

const askRoots = { method: "roots/list" as const, params: {} };

/** What `test_elicitation` asks for (the tools-call-elicitation scenario answers both fields). */
const contactForm = {
  type: "object",
  properties: {
    username: { type: "string", description: "User's response" },
    email: { type: "string", description: "User's email address" },
  },
  required: ["username", "email"],
} as const;

/** One field of each primitive type, each with a default (SEP-1034). */
const defaultsForm = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", description: "User age", default: 30 },
    score: { type: "number", description: "User score", default: 95.5 },
    status: { type: "string", description: "User status", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", description: "Verification status", default: true },
  },
} as const;

/** The five enum shapes of SEP-1330: untitled and titled single-select, the legacy `enumNames`, untitled and titled multi-select. */
const enumsForm = {
  type: "object",
  properties: {
    untitledSingle: { type: "string", title: "Untitled single-select", enum: ["option1", "option2", "option3"] },
    titledSingle: {
      type: "string",
      title: "Titled single-select",
      oneOf: [
        { const: "value1", title: "First Option" },
        { const: "value2", title: "Second Option" },
        { const: "value3", title: "Third Option" },
      ],
    },
    legacyEnum: {
      type: "string",
      title: "Legacy titled enum",
      enum: ["opt1", "opt2", "opt3"],
      enumNames: ["Option One", "Option Two", "Option Three"],
    },
    untitledMulti: { type: "array", title: "Untitled multi-select", items: { type: "string", enum: ["option1", "option2", "option3"] } },
    titledMulti: {
      type: "array",
      title: "Titled multi-select",
      items: {
        anyOf: [
          { const: "value1", title: "First Choice" },
          { const: "value2", title: "Second Choice" },
          { const: "value3", title: "Third Choice" },
        ],
      },
    },
  },
} as const;

/** How the elicitation tools report what the user did, whichever generation asked. */
function describeElicitation(answer: { action: string; content?: unknown }): string {
  return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
}

/** The resource the subscription scenarios watch; `test_touch_watched_resource` changes it. */
const WATCHED_RESOURCE = "test://watched-resource";

/**
 * Sends a `notifications/message`. No level check here: `sendNotification`
 * drops it below the level the client asked for (`ctx.logLevel`: the
 * request's `_meta` level over 2026-07-28, `logging/setLevel` in a 2025
 * session), and over 2026-07-28 sends none when no level was asked.
 */
async function log(ctx: ServerRequestContext, level: LoggingLevel, data: string): Promise<void> {
  await ctx.sendNotification({ jsonrpc: "2.0", method: "notifications/message", params: { level, logger: "everything-server", data } });
}

/**
 * Builds the everything server.
 *
 * @param options.name - server name (also the audience of its sealed state)
 */
export function createEverythingServer(options: { name?: string } = {}): McpServer {
  // `logging`: the logging tools send notifications/message, and a server that does must declare it (2025 clients ask for a level only then).
  const mcp = new McpServer({ name: options.name ?? "mcp-roundtrip-everything-server", version: "1.0.0" }, { capabilities: { logging: {} } });

  // ---- a tool whose arguments are mirrored into Mcp-Param-* headers (SEP-2243) ----
  mcp.tool(
    "test_custom_headers",
    {
      description: "Routes by region; the region travels in the Mcp-Param-Region header too, and the server checks the two agree",
      inputSchema: {
        type: "object",
        properties: { region: { type: "string", "x-mcp-header": "Region" }, query: { type: "string" } },
        required: ["region"],
      },
    },
    (args) => text(`Routed to ${String(args.region)}`),
  );

  // ---- content tools ----
  mcp.tool("test_simple_text", { description: "Returns simple text content", inputSchema: NO_ARGS }, () => text("This is a simple text response for testing."));
  mcp.tool("test_image_content", { description: "Returns image content", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" }],
  }));
  mcp.tool("test_audio_content", { description: "Returns audio content", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "audio", data: TEST_AUDIO_BASE64, mimeType: "audio/wav" }],
  }));
  mcp.tool("test_embedded_resource", { description: "Returns an embedded resource", inputSchema: NO_ARGS }, () => ({
    content: [{ type: "resource", resource: { uri: "test://embedded-resource", mimeType: "text/plain", text: "This is an embedded resource content." } }],
  }));
  mcp.tool("test_multiple_content_types", { description: "Returns text, image and resource content", inputSchema: NO_ARGS }, () => ({
    content: [
      { type: "text", text: "Multiple content types test:" },
      { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" },
      {
        type: "resource",
        resource: { uri: "test://mixed-content-resource", mimeType: "application/json", text: JSON.stringify({ test: "data", value: 123 }) },
      },
    ],
  }));
  mcp.tool("test_error_handling", { description: "Always reports a tool error", inputSchema: NO_ARGS }, () => ({
    isError: true,
    content: [{ type: "text", text: "This tool intentionally returns an error for testing" }],
  }));

  // ---- notifications ----
  mcp.tool("test_tool_with_progress", { description: "Reports progress 0, 50, 100 out of 100", inputSchema: NO_ARGS }, async (_args, ctx) => {
    const token = ctx.meta.progressToken;
    for (const progress of [0, 50, 100]) {
      if (token !== undefined) {
        await ctx.sendNotification({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token as string | number, progress, total: 100, message: `Completed step ${progress} of 100` },
        });
      }
      if (progress < 100) await sleep(50, ctx.signal);
    }
    return text(`Progress reported for token ${String(token)}`);
  });
  const loggingTool = async (_args: Record<string, unknown>, ctx: ServerRequestContext) => {
    await log(ctx, "info", "Tool execution started");
    await sleep(20, ctx.signal);
    await log(ctx, "info", "Tool processing data");
    await log(ctx, "info", "Tool execution completed");
    return text("Tool with logging executed successfully");
  };
  mcp.tool("test_tool_with_logging", { description: "Logs three messages when the request sets a log level", inputSchema: NO_ARGS }, loggingTool);
  mcp.tool("test_logging_tool", { description: "Logs only when the request sets a log level", inputSchema: NO_ARGS }, loggingTool);

  // ---- multi round-trip requests ----
  mcp.tool("test_input_required_result_elicitation", { description: "Asks for the user's name", inputSchema: NO_ARGS }, (_args, ctx) => {
    const answer = ctx.inputResponses?.user_name;
    const name = answerField(answer, "name");
    if (!isAcceptedElicitation(answer) || name === undefined) return inputRequired({ inputRequests: { user_name: askName() } });
    return text(`Hello, ${name}!`);
  });
  mcp.tool("test_streaming_elicitation", { description: "Asks a question through an InputRequiredResult", inputSchema: NO_ARGS }, (_args, ctx) => {
    const answer = ctx.inputResponses?.user_name;
    const name = answerField(answer, "name");
    if (name === undefined) return inputRequired({ inputRequests: { user_name: askName() } });
    return text(`Hello, ${name}!`);
  });
  mcp.tool("test_input_required_result_sampling", { description: "Asks the client's model a question", inputSchema: NO_ARGS }, (_args, ctx) => {
    const answer = ctx.inputResponses?.capital_question as { content?: { type?: string; text?: string } } | undefined;
    if (answer === undefined || typeof answer !== "object") return inputRequired({ inputRequests: { capital_question: askCapital } });
    const reply = answer.content?.type === "text" ? answer.content.text : undefined;
    return text(`Sampling result: ${reply ?? "(no text)"}`);
  });
  mcp.tool("test_input_required_result_list_roots", { description: "Asks for the client's roots", inputSchema: NO_ARGS }, (_args, ctx) => {
    const answer = ctx.inputResponses?.client_roots as { roots?: Array<{ uri: string }> } | undefined;
    if (answer === undefined || !Array.isArray(answer.roots)) return inputRequired({ inputRequests: { client_roots: askRoots } });
    return text(`Roots: ${answer.roots.map((root) => root.uri).join(", ") || "(none)"}`);
  });
  mcp.tool("test_input_required_result_request_state", { description: "Round-trips sealed request state", inputSchema: NO_ARGS }, (_args, ctx) => {
    const confirmed = (ctx.inputResponses?.confirm as { content?: { ok?: unknown } } | undefined)?.content?.ok;
    if (ctx.requestState !== undefined && confirmed !== undefined) {
      const state = JSON.parse(ctx.requestState) as { kind?: string };
      if (state.kind === "request-state") return text(`state-ok: confirmed=${String(confirmed)}`);
    }
    return inputRequired({
      inputRequests: {
        confirm: {
          method: "elicitation/create",
          params: { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
        },
      },
      requestState: JSON.stringify({ kind: "request-state" }),
    });
  });
  mcp.tool("test_input_required_result_multiple_inputs", { description: "Asks for elicitation, sampling and roots at once", inputSchema: NO_ARGS }, (_args, ctx) => {
    const responses = ctx.inputResponses ?? {};
    const state = ctx.requestState === undefined ? undefined : (JSON.parse(ctx.requestState) as { kind?: string });
    if (state?.kind === "multiple-inputs" && responses.user_name && responses.greeting && responses.client_roots) {
      const greeting = (responses.greeting as { content?: { text?: string } }).content?.text ?? "Hello";
      const roots = (responses.client_roots as { roots?: unknown[] }).roots ?? [];
      return text(`Name: ${answerField(responses.user_name, "name") ?? "?"}; Greeting: ${greeting}; Roots: ${roots.length}`);
    }
    return inputRequired({
      inputRequests: {
        user_name: askName(),
        greeting: {
          method: "sampling/createMessage",
          params: { messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }], maxTokens: 50 },
        },
        client_roots: askRoots,
      },
      requestState: JSON.stringify({ kind: "multiple-inputs" }),
    });
  });
  mcp.tool("test_input_required_result_multi_round", { description: "Asks two questions in two rounds", inputSchema: NO_ARGS }, (_args, ctx) => {
    const state = ctx.requestState === undefined ? undefined : (JSON.parse(ctx.requestState) as { round?: number; name?: string });
    const askStep1 = () => inputRequired({ inputRequests: { step1: askName("Step 1: What is your name?") }, requestState: JSON.stringify({ round: 1 }) });
    if (state?.round === 1) {
      const name = answerField(ctx.inputResponses?.step1, "name");
      if (name === undefined) return askStep1();
      return inputRequired({
        inputRequests: {
          step2: {
            method: "elicitation/create",
            params: {
              message: "Step 2: What is your favorite color?",
              requestedSchema: { type: "object", properties: { color: { type: "string" } }, required: ["color"] },
            },
          },
        },
        requestState: JSON.stringify({ round: 2, name }),
      });
    }
    if (state?.round === 2) {
      const color = answerField(ctx.inputResponses?.step2, "color");
      if (color !== undefined) return text(`Multi-round complete for ${state.name ?? "friend"} who likes ${color}`);
    }
    return askStep1();
  });
  mcp.tool("test_input_required_result_tampered_state", { description: "Issues integrity-protected request state", inputSchema: NO_ARGS }, (_args, ctx) => {
    if (ctx.requestState !== undefined && ctx.inputResponses?.confirm) return text("state verified");
    return inputRequired({
      inputRequests: {
        confirm: {
          method: "elicitation/create",
          params: { message: "Please confirm", requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } },
        },
      },
      requestState: JSON.stringify({ kind: "tamper-check" }),
    });
  });
  mcp.tool(
    "test_input_required_result_capabilities",
    { description: "Asks only for what the client declared it can provide", inputSchema: NO_ARGS },
    (_args, ctx) => {
      const responses = ctx.inputResponses ?? {};
      if (Object.keys(responses).length > 0) return text(`Received: ${Object.keys(responses).sort().join(", ")}`);
      const declared = ctx.clientCapabilities;
      const inputRequests: Record<string, typeof askCapital | ReturnType<typeof askName> | typeof askRoots> = {};
      if (declared.elicitation) inputRequests.user_name = askName();
      if (declared.sampling) inputRequests.capital_question = askCapital;
      if (declared.roots) inputRequests.client_roots = askRoots;
      if (Object.keys(inputRequests).length === 0) return text("The client declared no input capability; nothing to ask.");
      return inputRequired({ inputRequests });
    },
  );
  mcp.tool("test_missing_capability", { description: "Needs sampling, whether or not the client declared it", inputSchema: NO_ARGS }, (_args, ctx) => {
    if (ctx.inputResponses?.capital_question) return text("sampled");
    // The SDK answers -32021 for an input request the client cannot serve.
    return inputRequired({ inputRequests: { capital_question: askCapital } });
  });

  // ---- asking the client through declared needs ----
  // One handler per tool for both generations: over 2026-07-28 the SDK turns
  // the need into an InputRequiredResult, in a 2025 session it sends the real
  // sampling/createMessage or elicitation/create and waits for the answer.
  mcp.tool(
    "test_sampling",
    {
      description: "Asks the client's model to answer a prompt",
      inputSchema: { type: "object", properties: { prompt: { type: "string", description: "The prompt to send to the LLM" } }, required: ["prompt"] },
      needs: (need) =>
        need.add("completion", (args) => sample({ messages: [{ role: "user", content: { type: "text", text: String(args.prompt) } }], maxTokens: 100 })),
    },
    (_args, { completion }) => {
      const reply = completion.content;
      return text(`LLM response: ${!Array.isArray(reply) && reply.type === "text" ? reply.text : JSON.stringify(reply)}`);
    },
  );
  mcp.tool(
    "test_elicitation",
    {
      description: "Asks the user for a username and an email address",
      inputSchema: { type: "object", properties: { message: { type: "string", description: "The message to show the user" } }, required: ["message"] },
      needs: (need) => need.add("contact", (args) => elicit({ message: String(args.message), schema: contactForm })),
    },
    (_args, { contact }) => text(`User response: action=${contact.action}, content=${JSON.stringify(contact.content ?? {})}`),
  );
  mcp.tool(
    "test_elicitation_sep1034_defaults",
    {
      description: "Asks for a form whose every field has a default (SEP-1034)",
      inputSchema: NO_ARGS,
      needs: (need) => need.add("profile", () => elicit({ message: "Please review your profile; every field has a default", schema: defaultsForm })),
    },
    (_args, { profile }) => text(describeElicitation(profile)),
  );
  mcp.tool(
    "test_elicitation_sep1330_enums",
    {
      description: "Asks for a form with every enum shape (SEP-1330)",
      inputSchema: NO_ARGS,
      needs: (need) => need.add("choices", () => elicit({ message: "Please pick from each list", schema: enumsForm })),
    },
    (_args, { choices }) => text(describeElicitation(choices)),
  );

  // ---- subscriptions ----
  let watchedVersion = 0;
  mcp.tool("test_touch_watched_resource", { description: `Changes ${WATCHED_RESOURCE} and tells its subscribers`, inputSchema: NO_ARGS }, () => {
    watchedVersion += 1;
    // 2025 sessions subscribed with resources/subscribe hear notifications/resources/updated.
    mcp.resourceUpdated(WATCHED_RESOURCE);
    return text(`${WATCHED_RESOURCE} is now at version ${watchedVersion}`);
  });

  // ---- JSON Schema 2020-12 keywords survive registration and tools/list ----
  mcp.tool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features",
      inputSchema: {
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        $defs: {
          address: { $anchor: "addressDef", type: "object", properties: { street: { type: "string" }, city: { type: "string" } } },
        },
        properties: {
          name: { type: "string" },
          address: { $ref: "#/$defs/address" },
          contactMethod: { type: "string", enum: ["phone", "email"] },
          phone: { type: "string" },
          email: { type: "string" },
        },
        allOf: [{ anyOf: [{ required: ["phone"] }, { required: ["email"] }] }],
        if: { properties: { contactMethod: { const: "phone" } }, required: ["contactMethod"] },
        then: { required: ["phone"] },
        else: { required: ["email"] },
        additionalProperties: false,
      },
    },
    (args) => text(`Contact ${String(args.name ?? "someone")} by ${String(args.contactMethod ?? "email")}`),
  );

  // ---- prompts ----
  mcp.prompt("test_simple_prompt", { description: "A prompt without arguments" }, () => [
    { role: "user", content: { type: "text", text: "This is a simple prompt for testing." } },
  ]);
  mcp.prompt(
    "test_prompt_with_arguments",
    {
      description: "A prompt with two required arguments",
      arguments: [
        { name: "arg1", description: "First test argument", required: true },
        { name: "arg2", description: "Second test argument", required: true },
      ],
      complete: {
        arg1: (value) => ["paris", "park", "party", "test", "testing"].filter((word) => word.startsWith(value)),
      },
    },
    (args) => [{ role: "user", content: { type: "text", text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }],
  );
  mcp.prompt(
    "test_prompt_with_embedded_resource",
    {
      description: "A prompt that embeds a resource",
      arguments: [{ name: "resourceUri", description: "URI of the resource to embed", required: true }],
    },
    (args) => [
      { role: "user", content: { type: "resource", resource: { uri: args.resourceUri!, mimeType: "text/plain", text: "Embedded resource content for testing." } } },
      { role: "user", content: { type: "text", text: "Please process the embedded resource above." } },
    ],
  );
  mcp.prompt("test_prompt_with_image", { description: "A prompt with an image" }, () => [
    { role: "user", content: { type: "image", data: TEST_IMAGE_BASE64, mimeType: "image/png" } },
    { role: "user", content: { type: "text", text: "Please analyze the image above." } },
  ]);
  mcp.prompt("test_input_required_result_prompt", { description: "A prompt that asks for context first" }, (_args, ctx) => {
    const context = answerField(ctx.inputResponses?.user_context, "context");
    if (context === undefined) {
      return inputRequired({
        inputRequests: {
          user_context: {
            method: "elicitation/create",
            params: {
              message: "What context should the prompt use?",
              requestedSchema: { type: "object", properties: { context: { type: "string" } }, required: ["context"] },
            },
          },
        },
      });
    }
    return [{ role: "user", content: { type: "text", text: `Prompt with context: ${context}` } }];
  });

  // ---- resources ----
  mcp.resource("test://static-text", { name: "Static text", description: "A static text resource", mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri, mimeType: "text/plain", text: "This is the content of the static text resource." }],
  }));
  mcp.resource("test://static-binary", { name: "Static binary", description: "A static binary resource (PNG)", mimeType: "image/png" }, (uri) => ({
    contents: [{ uri, mimeType: "image/png", blob: TEST_IMAGE_BASE64 }],
  }));
  mcp.resource(
    WATCHED_RESOURCE,
    { name: "Watched resource", description: "A resource to subscribe to; test_touch_watched_resource changes it", mimeType: "text/plain" },
    (uri) => ({
      contents: [{ uri, mimeType: "text/plain", text: `Watched resource, version ${watchedVersion}` }],
    }),
  );
  mcp.resource("test://template/{id}/data", { name: "Template data", description: "Data for an id", mimeType: "application/json" }, (uri, variables) => {
    const id = String(variables.id);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }) }] };
  });

  // ---- the tasks extension (tasks-* scenarios) ----
  registerTaskTools(mcp);

  return mcp;
}
