"use client";

import { createContext, useContext, type ReactNode } from "react";

export interface Embedding {
  /** True when the dashboard is the site's companion panel (loaded inside a frame). */
  embedded: boolean;
  /** The origins allowed to frame the dashboard (EMBED_ORIGINS), to which the panel reports its height. */
  parentOrigins: readonly string[];
}

const EmbeddingContext = createContext<Embedding>({ embedded: false, parentOrigins: [] });

/**
 * Whether this document is the embedded panel, decided once when the document loads (its request was for a
 * frame) and kept across client navigations, whose RSC requests do not say so.
 */
export function EmbeddingProvider({ value, children }: { value: Embedding; children?: ReactNode }) {
  return <EmbeddingContext value={value}>{children}</EmbeddingContext>;
}

export function useEmbedding(): Embedding {
  return useContext(EmbeddingContext);
}
