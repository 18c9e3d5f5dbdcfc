// The page's script (bundled with esbuild into app.js): connects to the MCP
// server named by `?server=` over Streamable HTTP, calls `book_table`, and
// answers the server's elicitation with a form drawn from its schema.
import { Client, type ElicitRequestParams, type ElicitResult, StreamableHttpClientTransport } from "mcp-roundtrip/client";
import { askWithForm } from "./form-dom.js";

const serverUrl = new URLSearchParams(location.search).get("server") ?? "http://127.0.0.1:3000/mcp";
const start = document.querySelector<HTMLFormElement>("#start")!;
const questions = document.querySelector<HTMLElement>("#questions")!;
const status = document.querySelector<HTMLElement>("#status")!;
const result = document.querySelector<HTMLOutputElement>("#result")!;

function show(state: "working" | "asking" | "done" | "error", text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

async function answer(params: ElicitRequestParams): Promise<ElicitResult> {
  if (params.mode === "url") return { action: "decline" }; // this page only draws forms
  show("asking", "The server is asking…");
  const reply = await askWithForm(questions, params.message, params.requestedSchema);
  show("working", "Sending your answer…");
  return reply;
}

start.addEventListener("submit", (event) => {
  event.preventDefault();
  const restaurant = new FormData(start).get("restaurant");
  void (async () => {
    const button = start.querySelector("button")!;
    button.disabled = true;
    result.value = "";
    show("working", `Connecting to ${serverUrl}…`);
    let client: Client | undefined;
    try {
      client = await Client.connect(new StreamableHttpClientTransport(serverUrl), {
        onElicit: answer,
        clientInfo: { name: "browser-example", version: "1.0.0" },
      });
      show("working", `Connected to ${client.serverInfo?.name ?? "the server"} (${client.protocolVersion}); calling book_table…`);
      const outcome = await client.callTool("book_table", { restaurant: String(restaurant ?? "") });
      result.value = outcome.content.map((block) => ("text" in block ? block.text : `[${block.type}]`)).join("\n");
      show(outcome.isError === true ? "error" : "done", outcome.isError === true ? "The tool reported an error." : "Done.");
    } catch (error) {
      show("error", `Failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      button.disabled = false;
      await client?.close();
    }
  })();
});
