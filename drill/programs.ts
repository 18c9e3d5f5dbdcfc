// Where the system programs are (Debian puts daemons in /usr/sbin, not on every PATH).
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The absolute path of `program`; throws naming the package to install when it is missing. */
export function findProgram(program: string, aptPackage: string): string {
  for (const dir of [...(process.env.PATH ?? "").split(delimiter).filter(Boolean), "/usr/sbin", "/usr/local/sbin", "/sbin"]) {
    try {
      accessSync(join(dir, program), constants.X_OK);
      return join(dir, program);
    } catch {
      // not here
    }
  }
  throw new Error(`the drill needs ${program}, not found on PATH: install it with \`sudo apt-get install -y ${aptPackage}\``);
}
