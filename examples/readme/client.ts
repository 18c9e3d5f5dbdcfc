// README "A client": the automatic loop answers every round with onElicit.
import { Client, type ElicitRequestParams, type ElicitResult } from "mcp-roundtrip/client";
import { createServer } from "./server.js";

/** Concatenates the text blocks of a tool result (typed, or as `client.resume` returns it). */
export const textOf = (result: object): string => ((result as { content?: { text?: string }[] }).content ?? []).map((block) => block.text ?? "").join("");

/** Answers the README server's two questions: a region form, or a yes/no confirmation. */
async function answer(params: ElicitRequestParams): Promise<ElicitResult> {
  const fields = "requestedSchema" in params ? Object.keys(params.requestedSchema.properties) : [];
  return fields.includes("region") ? { action: "accept", content: { region: "eu-west-1" } } : { action: "accept", content: { yes: true } };
}

/** Calls both README tools through the automatic loop; returns their texts. */
export async function runClient(): Promise<string[]> {
  const client = await Client.connect(createServer(), { onElicit: answer });
  try {
    const deployed = await client.callTool("deploy", { app: "shop" });
    const provisioned = await client.callTool("provision", { name: "orders" });
    return [textOf(deployed), textOf(provisioned)];
  } finally {
    await client.close();
  }
}
