import { describe, expect, it, vi } from "vitest";

import { boundedMemory } from "@/lib/format/bounded-memory";

describe("boundedMemory", () => {
  it("works an answer out once per key, null answers too", () => {
    const memory = boundedMemory<string | null>(10);
    const compute = vi.fn((key: string) => (key === "refused" ? null : key.toUpperCase()));
    expect(memory.get("a", compute)).toBe("A");
    expect(memory.get("a", compute)).toBe("A");
    expect(memory.get("refused", compute)).toBeNull();
    expect(memory.get("refused", compute)).toBeNull();
    expect(compute).toHaveBeenCalledTimes(2);
    expect(memory.size).toBe(2);
  });

  it("starts over past its number of keys", () => {
    const memory = boundedMemory<number>(3);
    for (const key of ["a", "b", "c"]) memory.get(key, (k) => k.length);
    expect(memory.size).toBe(3);
    memory.get("d", (k) => k.length);
    expect(memory.size).toBe(1);
    const compute = vi.fn((k: string) => k.length);
    memory.get("a", compute);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it("answers a key longer than its bound without remembering it", () => {
    const memory = boundedMemory<number>(3, 8);
    const compute = vi.fn((k: string) => k.length);
    expect(memory.get("123456789", compute)).toBe(9);
    expect(memory.get("123456789", compute)).toBe(9);
    expect(compute).toHaveBeenCalledTimes(2);
    expect(memory.get("12345678", compute)).toBe(8);
    expect(memory.size).toBe(1);
  });

  it("by default remembers keys of up to 256 characters, so a long header or cookie value is not kept", () => {
    const memory = boundedMemory<number>(3);
    const compute = vi.fn((k: string) => k.length);
    memory.get("x".repeat(257), compute);
    memory.get("x".repeat(257), compute);
    expect(compute).toHaveBeenCalledTimes(2);
    expect(memory.size).toBe(0);
    memory.get("x".repeat(256), compute);
    expect(memory.size).toBe(1);
  });

  it("remembers nothing for a key whose answer throws", () => {
    const memory = boundedMemory<number>(3);
    expect(() =>
      memory.get("bad", () => {
        throw new RangeError("refused");
      }),
    ).toThrow(RangeError);
    expect(memory.size).toBe(0);
  });
});
