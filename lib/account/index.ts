import "server-only";

export * from "./all-enrollments";
export * from "./courses";
export * from "./events";
export type { RawEnrolledCourse, RawEventRegistration, RawPageInfo } from "./fragments";
export * from "./lecture-url";
export * from "./operations";
export * from "./orders";
export * from "./overview";
