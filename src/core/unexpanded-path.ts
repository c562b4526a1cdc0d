/**
 * A path written as a shell would expand it: `~/lake` or `${HOME}/lake` in a pipeline file (or after
 * `--output=`, where no shell expands `~`). quotelake expands neither, so such a value once made a
 * folder literally named `~` or `${HOME}` in the folder it ran in and exited 0: a scheduled export
 * then wrote beside the lake it meant. Only the home folder is shown back: an environment
 * variable's value may be a secret.
 */
import { homedir } from 'node:os';

/** `~`, `~/x`, `~user/x`: the shell's tilde prefix. */
const TILDE = /^~[A-Za-z0-9._-]*(?:\/|$)/;

/** `$NAME` or `${NAME...}` (`${LAKE:-/srv/lake}` too). */
const VARIABLE = /\$(?:\{[A-Za-z_][A-Za-z0-9_]*[^}]*\}|[A-Za-z_][A-Za-z0-9_]*)/;

/** `starts with ~, which ...` or `holds $HOME, which ...` for a value a shell would have expanded, or undefined. */
export function unexpandedPathProblem(value: string): string | undefined {
  if (TILDE.test(value)) {
    const example = value.startsWith('~/') ? `${homedir()}/${value.slice(2)}` : `${homedir()}/lake`;
    return `starts with ~, which quotelake does not expand (a folder named "~" would be made where it runs): write the whole path, e.g. ${example}`;
  }
  const variable = VARIABLE.exec(value);
  if (variable !== null) {
    return `holds ${variable[0]}, which quotelake does not expand (it reads no environment variable inside a path, and a folder of that name would be made): write the path out; a shell expands it only on a command line`;
  }
  return undefined;
}
