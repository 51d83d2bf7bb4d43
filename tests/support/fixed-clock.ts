import { cleanup } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

/**
 * For each test of the file or `describe` that calls it: the clock reads `now` (only Date is faked, so
 * React and React Query keep their real timers), and whatever was rendered is cleaned up afterwards.
 */
export function atFixedTime(now: number | Date): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(now);
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });
}
