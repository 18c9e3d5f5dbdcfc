// runtime/adapters/2026-12-01.ts: how revision 2026-12-01 (SEP-3279, negotiated tool result
// variants) maps to the SDK's model, 2026-07-28. A rehearsal fixture: test/rehearsal/ copies it into
// a temp copy of the repository, where it sits in runtime/adapters/ and is typechecked there (the
// repository has no generated/2026-12-01/, so its own typecheck skips this file).
//
// What changed on the wire, and what a tool written against the model (content, and with an
// outputSchema its structuredContent) becomes:
//  - Tool: outputSchema is gone; outputVariants (required) lists the outputs the tool can produce.
//    Every model tool offers assistant/content: its content, written for the model, as the one
//    output a 2026-07-28 client reads first. A tool with an outputSchema also offers
//    programmatic/structured carrying that schema: under 2026-07-28 structuredContent is the
//    payload a program parses (content being the model's rendering of it), which is what the
//    programmatic audience names. No user variant: no model tool wrote anything for a person to
//    read apart from the model, and advertising one would promise an output that does not exist.
//  - tools/call: requestedOutputs (optional) selects among the advertised variants; absent, the
//    caller gets assistant/content alone. A selector the tool does not advertise (an unknown
//    audience, programmatic/structured on a tool without an outputSchema, a duplicate) is refused
//    with -32602 before the tool runs: never substituted.
//  - CallToolResult: outputs, one per selector in the order asked, replaces content and
//    structuredContent. input_required results keep their shape (only a Tool a sampling request
//    carries inside is mapped, like any other).
import { defineAdapter, invalidParams, type WireObject } from "../protocol/adapter.js";
import type { CallToolResult as ModelCallToolResult, Tool as ModelTool } from "../protocol/types.js";
import type { CallToolResult, Tool, ToolResultOutput, ToolResultOutputSelector, ToolResultVariant } from "../../generated/2026-12-01/types.js";

/** What a call gets when it names no outputs, and what every tool offers. */
const ASSISTANT_CONTENT: ToolResultOutputSelector = { audience: "assistant", format: "content" };

const nameOf = ({ audience, format }: ToolResultOutputSelector) => `${audience}/${format}`;

/** The variants a model tool offers, from its outputSchema (see the head of this file for why these). */
function variantsOf(outputSchema: ModelTool["outputSchema"]): ToolResultVariant[] {
  const variants: ToolResultVariant[] = [{ audience: "assistant", format: "content" }];
  if (outputSchema !== undefined) variants.push({ audience: "programmatic", format: "structured", schema: outputSchema });
  return variants;
}

function toolToWire({ outputSchema, ...tool }: ModelTool): Tool {
  return { ...tool, outputVariants: variantsOf(outputSchema) };
}

/** An input_required result with the tools of its sampling requests mapped; otherwise the same object. */
function inputRequiredToWire(result: WireObject): WireObject {
  const requests = result.inputRequests as Record<string, { method: string; params?: WireObject }> | undefined;
  let mapped: Record<string, unknown> | undefined;
  for (const [key, request] of Object.entries(requests ?? {})) {
    const tools = request.params?.tools as ModelTool[] | undefined;
    if (request.method !== "sampling/createMessage" || tools === undefined) continue;
    mapped ??= { ...requests };
    mapped[key] = { ...request, params: { ...request.params, tools: tools.map(toolToWire) } };
  }
  return mapped === undefined ? result : { ...result, inputRequests: mapped };
}

/**
 * Refuses requestedOutputs that the called tool does not advertise, naming the first bad selector.
 * `tool` is the model's listing entry the server looked up; without one (a tool the server does
 * not list, or a low-level Server, which has no registry) only assistant/content is on offer.
 */
function checkRequested(requested: ToolResultOutputSelector[], toolName: string, tool: Readonly<WireObject> | undefined): void {
  const offered = variantsOf(tool?.outputSchema as ModelTool["outputSchema"]).map(nameOf);
  const seen = new Set<string>();
  requested.forEach((selector, i) => {
    const name = nameOf(selector);
    if (seen.has(name)) throw invalidParams(`/params/requestedOutputs/${i} repeats ${name}: name each output once`, { selector });
    if (!offered.includes(name)) {
      throw invalidParams(
        `/params/requestedOutputs/${i} asks for ${name}, which tool ${JSON.stringify(toolName)} does not offer; ` +
          `request only outputs its outputVariants in tools/list name: ${offered.join(", ")}`,
        { selector, offered },
      );
    }
    seen.add(name);
  });
}

/** One output of a complete model result. */
function outputOf({ audience, format }: ToolResultOutputSelector, result: ModelCallToolResult, toolName: string): ToolResultOutput {
  if (format === "content") return { audience, format, content: result.content };
  if (result.structuredContent !== undefined) return { audience, format, structuredContent: result.structuredContent };
  // A failed call owes no payload matching the schema: its words travel in the content outputs.
  if (result.isError === true) return { audience, format, structuredContent: null };
  throw new Error(`tool ${JSON.stringify(toolName)} declares an outputSchema but returned no structuredContent for ${audience}/${format}`);
}

export default defineAdapter({
  model: "2026-07-28",
  requests: {
    "tools/call": ({ requestedOutputs, ...params }, { tool }) => {
      if (requestedOutputs !== undefined) checkRequested(requestedOutputs as ToolResultOutputSelector[], String(params.name), tool);
      return params;
    },
  },
  results: {
    "tools/list": (result) => ({ ...result, tools: (result.tools as ModelTool[]).map(toolToWire) }),
    "tools/call": (result, { wireParams }) => {
      // input_required keeps its shape; a task's handle (the tasks extension) carries no outputs.
      if (result.resultType === "input_required") return inputRequiredToWire(result);
      if (result.resultType !== "complete") return result;
      const { content, structuredContent, ...rest } = result as unknown as ModelCallToolResult;
      const requested = (wireParams.requestedOutputs as ToolResultOutputSelector[] | undefined) ?? [ASSISTANT_CONTENT];
      const model = { content, structuredContent, isError: rest.isError } as ModelCallToolResult;
      const wire: CallToolResult = { ...rest, outputs: requested.map((selector) => outputOf(selector, model, String(wireParams.name))) };
      return wire as unknown as WireObject;
    },
    "prompts/get": inputRequiredToWire,
    "resources/read": inputRequiredToWire,
  },
});
