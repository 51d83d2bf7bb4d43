import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { API_ROUTES } from "@/lib/contract/paths";
import type { EndSessionsRequest, SignedInSessionsBody } from "@/lib/contract/signed-in-sessions";

import { getJson, postJsonAction } from "./api";
import { accountKeys } from "./keys";

/** The member's sessions on this dashboard (GET /api/sessions). */
export function useSignedInSessions() {
  return useQuery({
    queryKey: accountKeys.signedInSessions(),
    queryFn: ({ signal }) => getJson<SignedInSessionsBody>(API_ROUTES.sessions, signal),
  });
}

/** "Sign out there" or "Sign out everywhere else" (POST /api/sessions/end), then the list again. */
export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: EndSessionsRequest) => postJsonAction<{ ended: number; complete: boolean }>(API_ROUTES.endSessions, request),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.signedInSessions() }),
  });
}
