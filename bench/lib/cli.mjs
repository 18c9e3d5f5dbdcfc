// Command lines of the bench's scripts.

/**
 * `parse()`'s options; a script's wrong flag is its user's to fix, so a throw
 * ends the process with its message (the usage and what was wrong), exit code
 * 2, and no stack.
 * @template T
 * @param {() => T} parse
 * @returns {T}
 */
export function optionsOrUsage(parse) {
  try {
    return parse();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  }
}
