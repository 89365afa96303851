// The little of pdfkit and svg-to-pdfkit that graphviz-diagram.images.ts uses (neither ships types).
declare module 'pdfkit' {
  import type { Readable } from 'node:stream';
  interface PdfOptions {
    size: [number, number];
    margin: number;
    info?: Record<string, string>;
  }
  class PDFDocument extends Readable {
    constructor(options: PdfOptions);
    end(): void;
  }
  export = PDFDocument;
}

declare module 'svg-to-pdfkit' {
  function SVGtoPDF(
    doc: import('pdfkit'),
    svg: string,
    x: number,
    y: number,
    options?: { width?: number; height?: number },
  ): void;
  export = SVGtoPDF;
}
