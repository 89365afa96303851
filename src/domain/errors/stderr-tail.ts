/** How many of a process's last stderr lines an error message carries. */
export const STDERR_TAIL_IN_MESSAGE = 10;

/**
 * `message` followed by a process's last stderr lines, one per indented line: what an agent
 * CLI printed last is often the only clue to why its step failed or hung.
 */
export function withStderrTail(message: string, tail: readonly string[]): string {
  return tail.length
    ? `${message}; last stderr lines:\n  ${tail.slice(-STDERR_TAIL_IN_MESSAGE).join('\n  ')}`
    : message;
}
