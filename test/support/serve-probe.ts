/**
 * Shell text for a Bash call made through the proxy that reports how the step's `mcp-serve` was started.
 *
 * Bash runs as PID 1 of a PID namespace of its own where `unshare` works (docs/tools.md), so `$PPID` is 0
 * there. The mount of /proc is still the host's, whose `status` files give host PIDs: start from the
 * shell's own host PID (the parent of the `awk` that reads /proc/self) and walk up to the ancestor with
 * a `mcp-serve` element in its argv. The same text works where no namespace could be made.
 */
const FIND_SERVE =
  "p=$(awk '/^PPid:/{print $2}' /proc/self/status); " +
  "while [ \"$p\" -gt 1 ] && ! tr '\\0' '\\n' < /proc/$p/cmdline | grep -qx mcp-serve; " +
  "do p=$(awk '/^PPid:/{print $2}' /proc/$p/status); done; SERVE=$p";

/** Prints `argv=<mcp-serve's command line, space-separated>`. */
export const SERVE_ARGV_PROBE = `${FIND_SERVE}; echo "argv=$(tr '\\0' ' ' < /proc/$SERVE/cmdline)"`;

/** Prints `exe=`, `argv=` and `certs=` (mcp-serve's NODE_EXTRA_CA_CERTS), one per line. */
export const SERVE_LAUNCH_PROBE = [
  FIND_SERVE,
  'echo "exe=$(readlink /proc/$SERVE/exe)"',
  "echo \"argv=$(tr '\\0' ' ' < /proc/$SERVE/cmdline)\"",
  "echo \"certs=$(tr '\\0' '\\n' < /proc/$SERVE/environ | sed -n 's/^NODE_EXTRA_CA_CERTS=//p')\"",
].join('; ');

/** The `key=value` lines a probe printed, as an object. */
export function probeLines(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}
