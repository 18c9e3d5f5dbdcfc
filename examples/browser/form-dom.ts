// Draws an elicitation as a real HTML form (one labelled control per field,
// the browser's own constraint checks from the schema) and resolves to the
// user's answer: accept with the typed content, decline, or cancel.
import type { ElicitResult } from "mcp-roundtrip/client";
import { formContent, formFields, type FormField, type FormValue, type RequestedSchema } from "./form.js";

type Control = HTMLInputElement | HTMLSelectElement;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function controlFor(field: FormField, id: string): Control {
  if (field.kind === "select" || field.kind === "multiselect") {
    const select = element("select", { id, name: field.name, required: field.required, multiple: field.kind === "multiselect" });
    if (field.kind === "select") select.append(element("option", { value: "", textContent: "— choose —" }));
    const chosen = new Set(Array.isArray(field.default) ? field.default : field.default === undefined ? [] : [String(field.default)]);
    for (const option of field.options ?? []) {
      select.append(element("option", { value: option.value, textContent: option.label, selected: chosen.has(option.value) }));
    }
    return select;
  }
  if (field.kind === "boolean") return element("input", { id, name: field.name, type: "checkbox", checked: field.default === true });
  const input = element("input", { id, name: field.name, required: field.required });
  if (field.kind === "number" || field.kind === "integer") {
    input.type = "number";
    input.step = field.kind === "integer" ? "1" : "any";
    if (field.minimum !== undefined) input.min = String(field.minimum);
    if (field.maximum !== undefined) input.max = String(field.maximum);
  } else {
    input.type = field.inputType ?? "text";
    if (field.minLength !== undefined) input.minLength = field.minLength;
    if (field.maxLength !== undefined) input.maxLength = field.maxLength;
  }
  if (field.default !== undefined) input.value = String(field.default);
  return input;
}

function controlValue(control: Control): FormValue {
  if (control instanceof HTMLSelectElement) {
    return control.multiple ? [...control.selectedOptions].map((option) => option.value) : control.value;
  }
  return control.type === "checkbox" ? control.checked : control.value;
}

/**
 * Shows `message` and a form for `requestedSchema` inside `host`, and waits
 * for the user. Submitting checks every field (the browser's constraints,
 * then the schema's) and resolves `accept` with the typed content; the
 * Decline and Cancel buttons resolve those actions. The form is removed once
 * answered.
 *
 * @param host - Where the form goes.
 * @param message - The server's question.
 * @param requestedSchema - The fields to ask for.
 * @returns The elicitation's answer.
 */
export function askWithForm(host: HTMLElement, message: string, requestedSchema: RequestedSchema): Promise<ElicitResult> {
  const fields = formFields(requestedSchema);
  const controls = new Map<string, Control>();
  const problems = element("ul", { className: "issues", role: "alert" } as Partial<HTMLUListElement>);
  const form = element("form", { className: "elicitation" }, element("p", { className: "question", textContent: message }));
  for (const field of fields) {
    const id = `field-${field.name}`;
    const control = controlFor(field, id);
    controls.set(field.name, control);
    const label = element("label", { htmlFor: id, textContent: field.required ? `${field.label} *` : field.label });
    const row = element("div", { className: `field ${field.kind}` }, label, control);
    if (field.description !== undefined) row.append(element("small", { textContent: field.description }));
    form.append(row);
  }
  const submit = element("button", { type: "submit", textContent: "Send" });
  const decline = element("button", { type: "button", name: "decline", textContent: "Decline" });
  const cancel = element("button", { type: "button", name: "cancel", textContent: "Cancel" });
  form.append(problems, element("div", { className: "actions" }, submit, decline, cancel));
  host.append(form);

  return new Promise((resolve) => {
    const finish = (answer: ElicitResult) => {
      form.remove();
      resolve(answer);
    };
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values: Record<string, FormValue> = {};
      for (const [name, control] of controls) values[name] = controlValue(control);
      const outcome = formContent(fields, values);
      if ("issues" in outcome) {
        problems.replaceChildren(...outcome.issues.map((issue) => element("li", { textContent: issue.message })));
        return;
      }
      finish({ action: "accept", content: outcome.content });
    });
    decline.addEventListener("click", () => finish({ action: "decline" }));
    cancel.addEventListener("click", () => finish({ action: "cancel" }));
  });
}
