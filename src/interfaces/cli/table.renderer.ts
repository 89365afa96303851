/**
 * Rows as aligned columns (`text`) or in a bordered box (`-f table`), the header first.
 * The last column is not padded in text mode, so lines carry no trailing spaces.
 */
export function renderTable(rows: string[][], bordered = false): string {
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length)));
  if (!bordered) {
    return (
      rows
        .map((r) =>
          r
            .map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col])))
            .join('  ')
            .trimEnd(),
        )
        .join('\n') + '\n'
    );
  }
  const rule = (l: string, m: string, r: string): string => `${l}${widths.map((w) => '─'.repeat(w + 2)).join(m)}${r}`;
  const line = (r: string[]): string => `│ ${r.map((cell, col) => (cell ?? '').padEnd(widths[col])).join(' │ ')} │`;
  const [head, ...body] = rows;
  return (
    [rule('┌', '┬', '┐'), line(head), rule('├', '┼', '┤'), ...body.map(line), rule('└', '┴', '┘')].join('\n') + '\n'
  );
}
