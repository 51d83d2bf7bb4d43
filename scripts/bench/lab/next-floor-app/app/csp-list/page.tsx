/** The page of /dynamic-list, served here behind the nonce CSP of ../../proxy.ts: what the nonce alone adds to a view. */
export { default } from "../dynamic-list/page";
