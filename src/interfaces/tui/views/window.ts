/** The part of a list that fits in `size` rows, scrolled so that item `at` is in the middle of it when it can be. */
export function windowOf<T>(list: readonly T[], at: number, size: number): { items: T[]; first: number } {
  const rows = Math.max(1, size);
  const first = Math.max(0, Math.min(at - Math.floor(rows / 2), list.length - rows));
  return { items: list.slice(first, first + rows), first };
}
