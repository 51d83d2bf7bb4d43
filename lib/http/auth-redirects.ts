import "server-only";

import { NextResponse } from "next/server";

import { getConfig } from "@/lib/config";
import { AuthError } from "@/lib/auth/errors";

import { logFailure } from "./error-responses";

/** Where every sign-in failure ends: a readable page, identified by our stable code, never the site's text. */
export function signInProblemRedirect(error: unknown): NextResponse {
  const code = error instanceof AuthError ? error.code : "unexpected";
  logFailure(error, code, "sign_in_failed");
  const url = new URL("/sign-in-problem", getConfig().appUrl);
  url.searchParams.set("code", code);
  if (error instanceof AuthError && error.detail) url.searchParams.set("detail", error.detail);
  return NextResponse.redirect(url, 303);
}

export function appRedirect(path: string): NextResponse {
  return NextResponse.redirect(new URL(path, getConfig().appUrl), 303);
}
