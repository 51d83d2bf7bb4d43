/** Hierarchical React Query keys: invalidate `accountKeys.all` to refetch every account page. */
export const accountKeys = {
  all: ["account"] as const,
  overview: () => [...accountKeys.all, "overview"] as const,
  courses: () => [...accountKeys.all, "courses"] as const,
  orders: () => [...accountKeys.all, "orders"] as const,
  events: () => [...accountKeys.all, "events"] as const,
  /** What an AI assistant connected to the site can do: fetched in the browser only, never prefetched. */
  connections: () => [...accountKeys.all, "connections"] as const,
  session: () => ["session"] as const,
};
