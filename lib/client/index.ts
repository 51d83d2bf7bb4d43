export * from "./api";
export * from "./hooks";
export * from "./keys";
export * from "./queries";
export * from "./query-client";
