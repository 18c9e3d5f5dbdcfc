// The server the browser page talks to: one tool, `book_table`, that asks
// the user for the booking's details through a form elicitation (a string
// with a minimum length, a bounded integer, a titled and a plain choice, a
// number, a boolean, a multiple choice and an e-mail address; four of them
// required).
import { McpServer, elicit } from "mcp-roundtrip/server";

/** The form `book_table` asks the user to fill in. */
export const BOOKING_FORM = {
  type: "object",
  properties: {
    name: { type: "string", title: "Name on the booking", minLength: 2 },
    guests: { type: "integer", title: "Guests", minimum: 1, maximum: 12 },
    time: {
      type: "string",
      title: "Time",
      oneOf: [
        { const: "18:00", title: "6 pm" },
        { const: "19:30", title: "7:30 pm" },
        { const: "21:00", title: "9 pm" },
      ],
    },
    seating: { type: "string", title: "Seating", enum: ["indoor", "terrace"] },
    budget: { type: "number", title: "Budget per person (EUR)", minimum: 0 },
    highChair: { type: "boolean", title: "High chair", default: false },
    diet: { type: "array", title: "Dietary needs", items: { type: "string", enum: ["vegetarian", "vegan", "gluten-free"] }, maxItems: 2 },
    email: { type: "string", title: "E-mail for the confirmation", format: "email" },
  },
  required: ["name", "guests", "time", "seating"],
} as const;

/** Builds the booking server. Its sealing key lives as long as this process. */
export function createBookingServer(): McpServer {
  const server = new McpServer({ name: "booking", version: "1.0.0" });
  server.tool(
    "book_table",
    {
      description: "Books a table at a restaurant; asks the user for the details.",
      inputSchema: { type: "object", properties: { restaurant: { type: "string", minLength: 1 } }, required: ["restaurant"] },
      needs: (need) => need.add("details", () => elicit({ message: "Who is coming, and when?", schema: BOOKING_FORM })),
    },
    (args, { details }) => {
      if (details.action !== "accept") return { content: [{ type: "text", text: `No table booked at ${String(args.restaurant)} (${details.action}).` }] };
      const { name, guests, time, seating, budget, highChair, diet, email } = details.content;
      const extras = [
        budget === undefined ? undefined : `budget ${budget} EUR per person`,
        highChair === true ? "a high chair" : undefined,
        diet === undefined || diet.length === 0 ? undefined : `diet: ${diet.join(" and ")}`,
        email === undefined ? undefined : `confirmation to ${email}`,
      ].filter((extra) => extra !== undefined);
      const text = `Booked ${String(args.restaurant)} for ${guests} under '${name}' at ${time}, ${seating}${extras.length > 0 ? `; ${extras.join(", ")}` : ""}.`;
      return { content: [{ type: "text", text }] };
    },
  );
  return server;
}
