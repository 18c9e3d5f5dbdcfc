// Mutations of `Mcp-Session-Id` and `Last-Event-ID` values for the fuzz:
// each takes a real value (of the session under test, or of another live
// session) and changes it the way a guessing or confused client would.
import type { Random } from "./random.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const ODD = [" ", "\t", ",", ";", "%", "%00", "\u00e9", "\u0430", "\u200b", "\ufeff", "\u2028", "\u0661", "..", "/", "\\", "*", "=", "'", '"'];

const at = (random: Random, text: string) => random.int(0, Math.max(0, text.length - 1));
const char = (random: Random, set = ALPHABET) => set[random.int(0, set.length - 1)]!;

/** One mutation of `value`; `other` is a real value of another session (for splices). */
export function mutateSessionId(value: string, other: string, random: Random): string {
  const i = at(random, value);
  switch (random.int(0, 15)) {
    case 0:
      return value.slice(0, i) + char(random) + value.slice(i + 1); // one character changed
    case 1:
      return value.slice(0, i) + value.slice(i + 1); // one dropped
    case 2:
      return value.slice(0, i) + char(random) + value.slice(i); // one added
    case 3:
      return value.slice(0, random.int(0, value.length)); // truncated (the empty string included)
    case 4:
      return value + value.slice(0, random.int(1, 4)); // extended
    case 5: {
      const c = value[i] ?? "";
      return value.slice(0, i) + (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()) + value.slice(i + 1); // case flipped
    }
    case 6:
      return `${random.next() < 0.5 ? " " : "\t"}${value}${random.next() < 0.5 ? " " : ""}`; // padded
    case 7:
      return `${value},${other}`; // two ids in one header
    case 8:
      return other.slice(0, i) + value[i] + other.slice(i + 1); // the other session's id, one character from this one's
    case 9:
      return value.slice(0, i) + char(random, ODD.join("")) + value.slice(i + 1); // a character outside the id alphabet
    case 10:
      return value.repeat(random.int(2, 200)); // long
    case 11:
      return encodeURIComponent(value).replace(/[A-Za-z]/, (letter) => `%${letter.charCodeAt(0).toString(16)}`); // percent-encoded
    case 12:
      return value.split("").reverse().join("");
    case 13:
      return Array.from({ length: value.length }, () => char(random)).join(""); // a fresh guess
    case 14:
      return value; // the real id, unchanged: must be answered in its own session
    default:
      return other; // the other session's real id: answered in that session, never this one's
  }
}

/** One mutation of an event id `stream-seq`; `other` is an event id of another session. */
export function mutateEventId(value: string, other: string, random: Random): string {
  const [stream = "0", seq = "0"] = value.split("-");
  const n = (text: string) => Number(text);
  switch (random.int(0, 15)) {
    case 0:
      return `${stream}-${n(seq) + random.int(-2, 2)}`;
    case 1:
      return `${n(stream) + random.int(-2, 2)}-${seq}`;
    case 2:
      return other; // another session's event id
    case 3:
      return `${seq}-${stream}`;
    case 4:
      return `0${stream}-00${seq}`; // leading zeros
    case 5:
      return ` ${value}\t`;
    case 6:
      return `${stream}-${"9".repeat(random.int(16, 400))}`; // past every safe integer
    case 7:
      return `-${stream}-${seq}`;
    case 8:
      return `${stream}-${seq}-${seq}`;
    case 9:
      return `${stream}--${seq}`;
    case 10:
      return `${stream}-${seq}`.replace(/\d/, "\u0661"); // an Arabic-Indic digit
    case 11:
      return `${stream}.${seq}`;
    case 12:
      return `${stream}-${seq}${char(random, ODD.join(""))}`;
    case 13:
      return `${stream}-1e3`;
    case 14:
      return value; // the real id: resumes its own stream
    default:
      return `${random.int(0, 40)}-${random.int(0, 40)}`; // a guess
  }
}
