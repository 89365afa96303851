/**
 * Progress lines of release installs (AWF prints them on stdout); on stderr with `-f json`,
 * whose stdout is one JSON value.
 */
export function progressTo(json: boolean): (line: string) => void {
  return (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
}
