// examples/browser in a real headless Chromium (Debian's, driven by
// playwright-core): the page is served from one origin, the MCP server from
// another that allows exactly that origin, and the user answers the server's
// elicitation by filling in the form the page drew from requestedSchema.
// Needs chromium (skipped loudly without it; CI requires it).
import { mkdtempSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBrowserSite, type BrowserSite } from "../../examples/browser/site.js";
import { ensureBuilt, root } from "../client/ensure-built.js";
import { systemPrograms } from "../support/system.js";

const programs = systemPrograms("the browser test (test/browser)", [{ program: "chromium", aptPackage: "chromium" }]);

/** Chromium's switches for a quiet, sandboxless headless run that calls no Google service. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

describe.skipIf(!programs)("examples/browser in headless Chromium", () => {
  let site: BrowserSite;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    ensureBuilt("examples/browser/app.js");
    site = await startBrowserSite();
    profile = mkdtempSync(join(tmpdir(), "mcp-chromium-"));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: programs!.chromium!,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await site?.close();
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true });
  });

  /** Waits until the page asks (or fails), and says what its status line reads. */
  async function statusOnceSettled(page: Page, states: string[]): Promise<string> {
    const status = page.locator(`#status:is(${[...states, "error"].map((state) => `[data-state="${state}"]`).join(",")})`);
    await status.waitFor({ timeout: 15_000 });
    return `${await status.getAttribute("data-state")}: ${await status.textContent()}`;
  }

  /** Opens the page, recording what went to the MCP server and every script error. */
  async function openPage(): Promise<{ page: Page; calls: string[]; errors: string[]; scripts: string[] }> {
    const page = await context.newPage();
    const calls: string[] = [];
    const scripts: string[] = [];
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("request", (request) => {
      if (request.url() === site.mcpUrl) calls.push(`${request.method()} ${request.headers()["mcp-method"] ?? ""}`.trim());
      if (request.resourceType() === "script") scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(site.pageUrl);
    return { page, calls, errors, scripts };
  }

  it("serves the page and the MCP server from two origins", () => {
    expect(new URL(site.pageUrl).origin).toBe(site.pageOrigin);
    expect(new URL(site.mcpUrl).origin).not.toBe(site.pageOrigin);
  });

  it("draws the elicitation as a form, refuses a bad value, and shows the result once it is filled in", async () => {
    const { page, calls, errors, scripts } = await openPage();
    await page.getByRole("button", { name: "Book" }).click();
    expect(await statusOnceSettled(page, ["asking"])).toBe("asking: The server is asking…");
    const form = page.locator("form.elicitation");
    await expect(form.locator(".question").textContent()).resolves.toBe("Who is coming, and when?");

    // The controls follow requestedSchema: types, bounds, choices and the required marks.
    const guests = page.getByLabel("Guests *");
    expect(await guests.evaluate((input: HTMLInputElement) => [input.type, input.min, input.max, input.step, input.required])).toEqual([
      "number",
      "1",
      "12",
      "1",
      true,
    ]);
    expect(await page.getByLabel("Budget per person (EUR)").evaluate((input: HTMLInputElement) => [input.type, input.step, input.required])).toEqual([
      "number",
      "any",
      false,
    ]);
    expect(await page.getByLabel("Time *").locator("option").allTextContents()).toEqual(["— choose —", "6 pm", "7:30 pm", "9 pm"]);
    expect(await page.getByLabel("Seating *").locator("option").allTextContents()).toEqual(["— choose —", "indoor", "terrace"]);
    expect(await page.getByLabel("High chair").evaluate((input: HTMLInputElement) => [input.type, input.checked])).toEqual(["checkbox", false]);
    expect(await page.getByLabel("E-mail for the confirmation").getAttribute("type")).toBe("email");
    const diet = page.getByLabel("Dietary needs");
    expect(await diet.evaluate((select: HTMLSelectElement) => [select.multiple, [...select.options].map((option) => option.value)])).toEqual([
      true,
      ["vegetarian", "vegan", "gluten-free"],
    ]);

    // A value the schema forbids: the browser's own constraint check keeps the form open.
    await page.getByLabel("Name on the booking *").fill("Ada Lovelace");
    await guests.fill("13");
    await page.getByLabel("Time *").selectOption({ label: "7:30 pm" });
    await page.getByLabel("Seating *").selectOption("terrace");
    await page.getByRole("button", { name: "Send" }).click();
    expect(await guests.evaluate((input: HTMLInputElement) => input.validity.rangeOverflow)).toBe(true);
    expect(await form.count()).toBe(1);

    await guests.fill("4");
    await page.getByLabel("Budget per person (EUR)").fill("25.5");
    await page.getByLabel("High chair").check();
    // Three dietary needs break maxItems 2: the page's own check says so and keeps the form.
    await diet.selectOption(["vegetarian", "vegan", "gluten-free"]);
    await page.getByRole("button", { name: "Send" }).click();
    await expect(form.locator(".issues li").allTextContents()).resolves.toEqual(["Pick at most 2 for Dietary needs."]);
    await diet.selectOption(["vegan", "gluten-free"]);
    await page.getByRole("button", { name: "Send" }).click();

    expect(await statusOnceSettled(page, ["done"])).toBe("done: Done.");
    expect(await page.locator("#result").textContent()).toBe(
      "Booked Chez Ada for 4 under 'Ada Lovelace' at 19:30, terrace; budget 25.5 EUR per person, a high chair, diet: vegan and gluten-free.",
    );
    expect(await form.count()).toBe(0);
    // Both rounds of tools/call crossed to the other origin.
    expect(calls.filter((call) => call === "POST tools/call")).toHaveLength(2);
    expect(errors).toEqual([]);
    // Against a 2026-07-28 server the page fetched no 2025 fallback chunk: the client's 15,000 B
    // budget (test/bundle), the answer checker it loads with the first answer (3,000 B budget, same
    // test), plus the page's own form code, min+gz.
    const loaded = scripts.map((path) => gzipSync(site.bundle.files.get(path)!, { level: 9 }).length).reduce((a, b) => a + b, 0);
    expect(scripts).toContain("/app.js");
    expect(scripts.length).toBeLessThan(site.bundle.files.size);
    expect(loaded).toBeLessThanOrEqual(21_000);
    await page.close();
  });

  it("tells the server when the user declines", async () => {
    const { page, errors } = await openPage();
    await page.getByLabel("Restaurant").fill("Noma");
    await page.getByRole("button", { name: "Book" }).click();
    expect(await statusOnceSettled(page, ["asking"])).toBe("asking: The server is asking…");
    await page.getByRole("button", { name: "Decline" }).click();
    expect(await statusOnceSettled(page, ["done"])).toBe("done: Done.");
    expect(await page.locator("#result").textContent()).toBe("No table booked at Noma (decline).");
    expect(errors).toEqual([]);
    await page.close();
  });

  it("runs an McpServer and a Client in the page itself: eval-free validation and portable sealing", async () => {
    const built = await build({
      absWorkingDir: root,
      entryPoints: [join(root, "test/browser/in-page-server.ts")],
      bundle: true,
      platform: "browser",
      format: "esm",
      target: "es2022",
      minify: true,
      write: false,
      logLevel: "silent",
      tsconfigRaw: "{}", // mcp-roundtrip/* through the package's exports: the built dist/
    });
    // No schema compiler that generates code reaches the page's bundle.
    expect(built.outputFiles[0]!.text).not.toMatch(/new Function\s*\(|(?<![\w$.])Function\s*\(/);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto("about:blank");
    await page.addScriptTag({ type: "module", content: built.outputFiles[0]!.text });
    await page.waitForFunction(() => "inPage" in window, undefined, { timeout: 15_000 });
    const outcome = (await page.evaluate(() => (window as unknown as { inPage: unknown }).inPage)) as {
      good: { text: string }[];
      bad: { isError: boolean; content: { text: string }[] };
      token: string;
    };
    expect(errors).toEqual([]);
    expect(outcome.good).toEqual([{ type: "text", text: "ABC ×2 confirmed, sealed with noble" }]);
    expect(outcome.bad.isError).toBe(true);
    expect(outcome.bad.content[0]!.text).toMatch(/^Invalid arguments for tool route: .*\/code/);
    expect(outcome.token).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    await page.close();
  });
});
