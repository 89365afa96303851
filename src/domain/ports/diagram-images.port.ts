/** The picture formats `awf diagram -o` writes besides its text ones (DOT, Mermaid). */
export type ImageFormat = 'svg' | 'png' | 'pdf';
export const IMAGE_FORMATS: readonly ImageFormat[] = ['svg', 'png', 'pdf'];

/**
 * Lays a Graphviz DOT graph out and draws it as an image, with no system binary and no browser.
 * The drawing libraries are loaded on the first call, so only `awf diagram -o <image>` pays for them.
 */
export interface DiagramImages {
  render(dot: string, format: ImageFormat): Promise<Uint8Array>;
}

export const DIAGRAM_IMAGES = Symbol.for('awf.DiagramImages');
