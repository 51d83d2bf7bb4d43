/**
 * Compares two screenshots (PNG) of one element in two states, as either browser's suite takes them: the
 * states are drawn apart when the two are the same size and their pixels differ. Returns what is wrong, in
 * words; empty when the states can be told apart.
 */
export function statesNotDrawnApart(first: Uint8Array, second: Uint8Array, what: string): string[] {
  const size = (png: Uint8Array) => {
    const header = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
    // The IHDR chunk's width and height, right after the signature and the chunk's length and type.
    return `${header.readUInt32BE(16)}×${header.readUInt32BE(20)}`;
  };
  if (size(first) !== size(second)) return [`${what}: ${size(first)} in one state, ${size(second)} in the other`];
  return Buffer.from(first).equals(second) ? [`${what}: drawn the same in both states`] : [];
}
