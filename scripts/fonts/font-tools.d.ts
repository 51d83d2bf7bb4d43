/** The parts of the font tools' APIs scripts/fonts uses (the packages ship no types). */
declare module "subset-font" {
  interface SubsetOptions {
    targetFormat?: "sfnt" | "woff" | "woff2";
    variationAxes?: Record<string, number | { min: number; max: number; default?: number }>;
  }
  export default function subsetFont(font: Buffer, text: string, options?: SubsetOptions): Promise<Buffer>;
}

declare module "fontverter" {
  export function convert(font: Buffer, toFormat: "sfnt" | "woff" | "woff2"): Promise<Buffer>;
}
