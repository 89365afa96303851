import { AwfError } from '../../domain/errors/awf-error';
import { ErrorCodes } from '../../domain/errors/error-codes';
import type { DiagramImages, ImageFormat } from '../../domain/ports/diagram-images.port';

/** PNG pixels per SVG point: sharp on a high-density screen and in a document. */
const PNG_ZOOM = 2;
/** Graphviz names Arial; these are the sans-serif faces a machine without it most likely has. */
const SANS = 'Arial, Helvetica, Liberation Sans, DejaVu Sans, Noto Sans, sans-serif';

/**
 * SVG from Graphviz compiled to WebAssembly (@hpcc-js/wasm-graphviz), PNG from that SVG (resvg,
 * a prebuilt native module from npm), PDF from it through pdfkit and svg-to-pdfkit (pure
 * JavaScript, vector, PDF's own Helvetica). Each library is imported on first use.
 */
export class GraphvizDiagramImages implements DiagramImages {
  async render(dot: string, format: ImageFormat): Promise<Uint8Array> {
    const svg = await this.svg(dot);
    if (format === 'svg') return Buffer.from(svg);
    return format === 'png' ? await png(svg) : await pdf(svg);
  }

  private async svg(dot: string): Promise<string> {
    const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
    const graphviz = await Graphviz.load();
    try {
      return graphviz.layout(dot, 'svg', 'dot');
    } catch (err) {
      // awf wrote the DOT: a layout failure is awf's bug, not the user's.
      throw new AwfError(
        ErrorCodes.SYSTEM_INTERNAL,
        `Graphviz could not lay the diagram out: ${err instanceof Error ? err.message : String(err)}`,
        {},
        'This is a bug in awf; `awf diagram <workflow>` prints the DOT to attach to a report.',
      );
    }
  }
}

async function png(svg: string): Promise<Uint8Array> {
  const { Resvg } = await import('@resvg/resvg-js');
  const withFonts = svg.replace(/font-family="Arial"/g, `font-family="${SANS}"`);
  const image = new Resvg(withFonts, {
    fitTo: { mode: 'zoom', value: PNG_ZOOM },
    background: 'white',
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  });
  return image.render().asPng();
}

async function pdf(svg: string): Promise<Uint8Array> {
  const [{ default: PDFDocument }, { default: SVGtoPDF }] = await Promise.all([
    import('pdfkit'),
    import('svg-to-pdfkit'),
  ]);
  const [width, height] = ['width', 'height'].map((d) => Number(new RegExp(`${d}="([\\d.]+)pt"`).exec(svg)?.[1] ?? 0));
  const doc = new PDFDocument({ size: [width, height], margin: 0, info: { Creator: 'awf diagram' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });
  SVGtoPDF(doc, svg, 0, 0, { width, height });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
