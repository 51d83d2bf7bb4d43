export * from "./access";
export * from "./currency";
export * from "./datetime";
export * from "./events";
export * from "./ics";
export * from "./position";
export * from "./relative";
export * from "./states";
