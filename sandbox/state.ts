/**
 * The mutable state shared by every route of one sandbox instance.
 */
import { DEFAULT_KNOBS, knobsPatchSchema, mergeKnobs } from "./knobs";
import type { ContentCoding, EndpointName, FailureSpec, KnobsPatch, SandboxKnobs } from "./knobs";
import { DEFAULT_DASHBOARD_REDIRECT_URIS, seedClients } from "./seed";
import type { SandboxClient } from "./seed";
import { describeRotation, initialSigningKeys, rotatedSigningKeys } from "./signing-keys";
import type { KeyRotationMode, KeyRotationResult, SigningKeys } from "./signing-keys";
import { SandboxStore } from "./store";

export interface SandboxOptions {
  /** The issuer origin. Default: `http://127.0.0.1:<port>` once listening (`http://127.0.0.1:4000` before). */
  issuer?: string;
  /** Redirect URIs of the seeded dashboard client. Default `["http://localhost:3000/api/auth/callback"]`. */
  dashboardRedirectUris?: readonly string[];
  /** Initial knobs (merged over the defaults). */
  knobs?: KnobsPatch;
  /** Injectable clock in milliseconds since the epoch. Default `Date.now`. */
  now?: () => number;
  /** Enables `/__sandbox/*` control endpoints. Never on by default. */
  control?: boolean;
  /** Request log entries kept (the newest). Default DEFAULT_REQUEST_LOG_LIMIT. */
  requestLogLimit?: number;
  /** Loopback clients registered at most; past it, registration is refused. Default DEFAULT_LOOPBACK_CLIENT_LIMIT. */
  loopbackClientLimit?: number;
}

/** The request log keeps the newest entries only, so a long-running demo does not grow without bound. */
export const DEFAULT_REQUEST_LOG_LIMIT = 2000;
/** Loopback (dynamically registered) clients kept at most. */
export const DEFAULT_LOOPBACK_CLIENT_LIMIT = 500;

export type RequestEndpoint = EndpointName | "page" | "logout" | "control";

export interface RequestLogEntry {
  /** Sequence number, from 1. */
  seq: number;
  /** Sandbox clock time (ms) when the request arrived. */
  at: number;
  method: string;
  path: string;
  endpoint: RequestEndpoint;
  /** For token requests, the `grant_type` sent (if any). */
  grantType?: string;
  /** For token requests, the `client_id` sent (if any). */
  clientId?: string;
  status: number;
  /** Set when a failure knob answered instead of the endpoint. */
  injectedFailure?: FailureSpec["mode"];
  /** Set when the answer was sent compressed (the `contentCoding` knob). */
  contentCoding?: ContentCoding;
  durationMs: number;
}

/** Site settings an operator changes in the admin area. */
export interface SiteSettings {
  /** The "MCP connections" beta: shows Developers, OAuth applications in the admin area (section 5.3 rule 7). */
  mcpConnectionsBeta: boolean;
}

export interface SandboxState {
  issuer: string;
  knobs: SandboxKnobs;
  readonly initialKnobs: SandboxKnobs;
  /** Every client: seeded ones plus those registered, resolved from metadata documents or created by an operator. */
  readonly clients: Map<string, SandboxClient>;
  /** Ids of the seeded clients (kept by a reset). */
  readonly seededClientIds: ReadonlySet<string>;
  readonly settings: SiteSettings;
  /** The dashboard's origin (from its first redirect URI): the "My learning" page embeds it. */
  readonly dashboardOrigin: string;
  readonly store: SandboxStore;
  readonly requests: RequestLogEntry[];
  readonly requestLogLimit: number;
  /** Requests logged since start: the next entry's `seq` is one more. */
  requestCount: number;
  readonly loopbackClientLimit: number;
  readonly control: boolean;
  /** Remaining count per endpoint for failures injected with `times`. */
  readonly failureCounters: Map<EndpointName, number>;
  /** The id_token signing key, the keys the JWKS publishes and the keys the site signed with (signing-keys.ts). */
  signingKeys: SigningKeys;
  /** The sandbox clock (ms), including the `clockOffsetMs` knob. */
  now(): number;
}

export function normalizeIssuer(issuer: string): string {
  const url = new URL(issuer);
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("issuer must be an http(s) origin");
  return url.origin;
}

export function createState(options: SandboxOptions = {}): SandboxState {
  const patch = knobsPatchSchema.parse(options.knobs ?? {});
  const initialKnobs = mergeKnobs(DEFAULT_KNOBS, patch);
  const clock = options.now ?? Date.now;
  const clients = new Map(
    seedClients(options.dashboardRedirectUris ?? DEFAULT_DASHBOARD_REDIRECT_URIS, clock()).map((client) => [client.clientId, client]),
  );
  const state: SandboxState = {
    issuer: normalizeIssuer(options.issuer ?? "http://127.0.0.1:4000"),
    knobs: initialKnobs,
    initialKnobs,
    clients,
    seededClientIds: new Set(clients.keys()),
    settings: { mcpConnectionsBeta: false },
    dashboardOrigin: new URL((options.dashboardRedirectUris ?? DEFAULT_DASHBOARD_REDIRECT_URIS)[0] ?? "http://localhost:3000/").origin,
    store: new SandboxStore(),
    requests: [],
    requestLogLimit: options.requestLogLimit ?? DEFAULT_REQUEST_LOG_LIMIT,
    requestCount: 0,
    loopbackClientLimit: options.loopbackClientLimit ?? DEFAULT_LOOPBACK_CLIENT_LIMIT,
    control: options.control === true,
    failureCounters: new Map(),
    signingKeys: initialSigningKeys(),
    now: () => clock() + state.knobs.clockOffsetMs,
  };
  return state;
}

/** Validates and merges a knobs patch; throws a ZodError on bad input. */
export function applyKnobs(state: SandboxState, patch: unknown): SandboxKnobs {
  const parsed = knobsPatchSchema.parse(patch);
  state.knobs = mergeKnobs(state.knobs, parsed);
  if (parsed.failures) {
    for (const endpoint of Object.keys(parsed.failures)) state.failureCounters.delete(endpoint as EndpointName);
  }
  return state.knobs;
}

/** What a real site does now and then: a new id_token signing key, published or not as `mode` says (signing-keys.ts). */
export function rotateSigningKey(state: SandboxState, mode: KeyRotationMode): KeyRotationResult {
  state.signingKeys = rotatedSigningKeys(state.signingKeys, mode);
  return describeRotation(state.signingKeys, mode);
}

/** Deletes a client and revokes everything issued to it. Seeded clients cannot be deleted. */
export function deleteClient(state: SandboxState, clientId: string): boolean {
  if (state.seededClientIds.has(clientId) || !state.clients.has(clientId)) return false;
  state.clients.delete(clientId);
  state.store.revokeClient(clientId, state.now());
  return true;
}

/**
 * Puts the site back as seeded: knobs, the beta flag, and the client list (clients created since are deleted and
 * their tokens revoked). Tokens of seeded clients, browser sessions and the signing keys are kept.
 */
export function resetSite(state: SandboxState): void {
  state.requests.length = 0;
  state.knobs = state.initialKnobs;
  state.failureCounters.clear();
  state.settings.mcpConnectionsBeta = false;
  for (const clientId of [...state.clients.keys()]) deleteClient(state, clientId);
}

/** Every resource origin the token endpoint accepts: this origin plus the sister sites. */
export function acceptedResources(state: SandboxState): string[] {
  return [state.issuer, ...state.knobs.foreignResources];
}

/**
 * The issuer identifier as this site names itself (the metadata's `issuer`, every `iss` it writes): its origin,
 * or with the `issuerTrailingSlash` knob that origin with the path "/". Endpoints are built from `issuer`.
 */
export function issuerIdentifier(state: SandboxState): string {
  return state.knobs.issuerTrailingSlash ? `${state.issuer}/` : state.issuer;
}
