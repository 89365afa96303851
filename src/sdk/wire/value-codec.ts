/**
 * `map<string, bytes>` fields (inputs, data, config) carry one JSON-encoded value per key:
 * the string "hi" travels as the bytes `"hi"` with its quotes. Bytes that are not JSON are
 * read back as the raw string, as AWF's host does.
 */
export function encodeValues(values: Record<string, unknown> | undefined): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const [key, value] of Object.entries(values ?? {})) {
    if (value === undefined) continue;
    out[key] = Buffer.from(JSON.stringify(value), 'utf8');
  }
  return out;
}

export function decodeValues(map: Record<string, Uint8Array> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, bytes] of Object.entries(map ?? {})) {
    const text = Buffer.from(bytes).toString('utf8');
    try {
      out[key] = JSON.parse(text);
    } catch {
      out[key] = text;
    }
  }
  return out;
}
