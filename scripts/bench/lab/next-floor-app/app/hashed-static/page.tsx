/**
 * The page of /static, prerendered at build time, served behind the proxy with a CSP of hashes instead of
 * a nonce (../../proxy.ts): what a signed-out page could cost without being rendered per request.
 */
export { default } from "../static/page";
