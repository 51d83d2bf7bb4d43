import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies";

/**
 * `next/headers` for a page rendered in a test: the request it sees is `requestHeaders.current`, set before the
 * render. A test file mocks the module with `vi.mock("next/headers", () => import("../support/request-headers"))`.
 */
export const requestHeaders = { current: new Headers() };

export const cookies = () => Promise.resolve(new RequestCookies(requestHeaders.current));

export const headers = () => Promise.resolve(requestHeaders.current);
