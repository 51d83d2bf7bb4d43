import type { en } from "./en";

/** Widens every string literal of a dictionary to `string`, keeping its keys. */
export type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The shape every dictionary has: exactly the keys of the English one. */
export type Messages = Widen<typeof en>;
